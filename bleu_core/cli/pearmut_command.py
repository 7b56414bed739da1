"""``campaigns export-pearmut`` and ``campaigns import-pearmut``: Pearmut's files out of and into bleu-study.

* ``export-pearmut STUDY --out campaign.json --users a,b [--protocol ESA|cESA] [--segments N --seed S]``: the
  study's (sampled) segments as a task-based campaign ``pearmut add`` accepts
  (:func:`bleu_core.campaigns.pearmut_export.pearmut_campaign`);
* ``export-pearmut --campaign CODE --key KEY [--database DB] --out bundle.zip``: a stored ESA or contrastive
  ESA campaign with its ratings (a contrastive one as cESA, a sentence's systems on one page), the zip of
  ``campaign.json`` and the three files of ``pearmut add-existing``
  (:func:`~bleu_core.campaigns.pearmut_export.pearmut_bundle`);
* ``import-pearmut PATH [DB] [--keep-judge USER]``: Pearmut's log, download or folder as an ESA campaign
  (:func:`bleu_core.campaigns.pearmut_import.import_pearmut`); prints its code and organiser key.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from bleu_core.campaigns.model import CampaignError

__all__ = ["pearmut_handler", "register_pearmut"]

_DB_HELP = "file path or SQLAlchemy URL (default: $BLEU_STUDY_DB, else the user's data directory)"


def register_pearmut(actions: Any) -> None:
    """Add the two actions to the ``campaigns`` sub-command's *actions*."""
    x = actions.add_parser(
        "export-pearmut",
        help="a study's segments, or a stored campaign with its ratings, as Pearmut's files "
        "(pearmut add / add-existing; docs/formats.md)",
    )
    x.add_argument("study", nargs="?", metavar="STUDY", help="the study (a path `study` reads, or demo:NAME)")  # fmt: skip
    x.add_argument("--out", required=True, metavar="FILE", help="the file to write (JSON; a .zip with --campaign)")  # fmt: skip
    x.add_argument("--users", help="annotator ids, comma-separated (with STUDY; task-based)")
    x.add_argument("--campaign-id", help="Pearmut's campaign id (default: the study's name)")
    x.add_argument("--systems", help="systems to rate, comma-separated (default: all)")
    x.add_argument(
        "--segments", type=int, help="how many segments, drawn with --seed (default: all)"
    )
    x.add_argument(
        "--seed", type=int, default=12345, help="seed of the draw and order (default 12345)"
    )
    x.add_argument("--protocol", choices=("ESA", "cESA"), default="ESA",
                   help="ESA: one system per page; cESA: a segment's systems side by side")  # fmt: skip
    x.add_argument("--pair", help="language pair of a study whose files name none")
    x.add_argument("--campaign", metavar="CODE", help="a stored (c)ESA campaign, not a study")
    x.add_argument("--key", help="the campaign's organiser key (with --campaign)")
    x.add_argument("--database", metavar="DB", help=_DB_HELP)
    i = actions.add_parser(
        "import-pearmut",
        help="a Pearmut campaign (folder, log or download) as an ESA campaign of the database",
    )
    i.add_argument("path", metavar="PATH", help="Pearmut's annotation log, download or a folder of its files")  # fmt: skip
    i.add_argument("database", nargs="?", metavar="DB", help=_DB_HELP)
    i.add_argument("--name", help="the campaign's name (default: Pearmut <campaign id>)")
    i.add_argument("--keep-judge", action="append", default=[], metavar="USER",
                   help="keep this annotator's ratings although they failed Pearmut's checks")  # fmt: skip


def pearmut_handler(args: argparse.Namespace) -> int:
    """Run ``export-pearmut`` or ``import-pearmut``."""
    if args.action == "import-pearmut":
        return _import(args)
    if args.campaign:
        return _export_campaign(args)
    return _export_study(args)


def _export_study(args: argparse.Namespace) -> int:
    import json
    import re

    from bleu_core.campaigns.integration import plan_from_study
    from bleu_core.campaigns.pearmut_export import pearmut_campaign
    from bleu_core.study.loading import load_study

    if not args.study or not args.users:
        raise CampaignError(
            "export-pearmut needs a STUDY and --users a,b (or --campaign CODE --key KEY)"
        )
    study = load_study(args.study, pair=args.pair).study
    systems = args.systems.split(",") if args.systems else list(study.systems)
    plan = plan_from_study(
        study, systems=systems, n_segments=args.segments or study.n_segments, seed=args.seed,
        display="both", protocol="esa",
    )  # fmt: skip
    cid = args.campaign_id or re.sub(r"[^\w.-]+", "_", study.name)
    documents = {seg.id: seg.doc_id for seg in study.segments if seg.doc_id}
    users = [u.strip() for u in args.users.split(",") if u.strip()]
    campaign = pearmut_campaign(plan.items, campaign_id=cid, users=users, protocol=args.protocol, documents=documents)  # fmt: skip
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(campaign, handle, ensure_ascii=False, indent=1)
    n = len(plan.items)
    print(f"{args.out}: Pearmut campaign {cid!r}, {n} items ({args.protocol}); load it with: pearmut add {args.out}")  # fmt: skip
    return 0


def _export_campaign(args: argparse.Namespace) -> int:
    from bleu_core.campaigns.connection import resolve_database_url
    from bleu_core.campaigns.pearmut_export import PEARMUT_PROTOCOL, pearmut_bundle
    from bleu_core.campaigns.storage import CampaignStore

    if not args.key:
        raise CampaignError("--campaign needs the campaign's organiser key: --key KEY")
    store = CampaignStore(resolve_database_url(args.database))
    try:
        campaign = store.check_organiser(args.campaign, args.key)
        if campaign.protocol not in PEARMUT_PROTOCOL:
            raise CampaignError(f"campaign {campaign.code} is {campaign.protocol}; Pearmut's files are written for ESA and contrastive ESA campaigns")  # fmt: skip
        items = store.items(campaign.code, args.key)
        ratings = store.ratings(campaign.code, args.key)
        spans = store.spans(campaign.code, args.key)
    finally:
        store.close()
    cid = args.campaign_id or campaign.code
    with open(args.out, "wb") as handle:
        # a contrastive campaign stays contrastive (a sentence's systems on one page); ESA as asked
        protocol = "cESA" if campaign.protocol == "cesa" else args.protocol
        handle.write(pearmut_bundle(items, ratings, spans, campaign_id=cid, protocol=protocol))
    print(f"{args.out}: campaign.json for `pearmut add`; with ratings, campaigns.json, progress.json and annotations.json for `pearmut add-existing`")  # fmt: skip
    return 0


def _import(args: argparse.Namespace) -> int:
    from bleu_core.campaigns.connection import resolve_database_url
    from bleu_core.campaigns.pearmut_import import import_pearmut
    from bleu_core.campaigns.storage import CampaignStore
    from bleu_core.errors import InputError
    from bleu_core.io.members import open_tree
    from bleu_core.io.text import read_text
    from bleu_core.study.formats.pearmut_study import pearmut_file, pearmut_files

    if os.path.isdir(args.path):
        with open_tree(args.path) as tree:
            files = pearmut_files(tree)
    else:
        files = pearmut_file(args.path, read_text(args.path, name=args.path))
    if files is None:
        raise InputError("not a Pearmut annotation log, download or campaign file", file=args.path)
    store = CampaignStore(resolve_database_url(args.database))
    try:
        got = import_pearmut(store, files, name=args.name, keep=args.keep_judge)
    finally:
        store.close()
    print(f"campaign {got.created.campaign.code}: {got.n_ratings} ratings imported")
    print(f"organiser key (shown once): {got.created.organiser_key}")
    for note in got.notes:
        print(f"note: {note}")
    return 0
