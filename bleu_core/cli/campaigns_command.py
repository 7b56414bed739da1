"""The ``campaigns`` sub-command: ``python -m bleu_core campaigns migrate [DB]`` (and ``export-pearmut``,
``import-pearmut``: :mod:`bleu_core.cli.pearmut_command`).

Brings the campaign database *DB* (a file path or SQLAlchemy URL; default: ``BLEU_STUDY_DB``, else the
SQLite file in the user's data directory) to the current schema with :func:`bleu_core.campaigns.migrate.migrate`
and says from which revision to which. The app does the same on start-up; the command is for a deployment
that migrates before starting its app servers.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["handler", "register"]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("campaigns", help="the rating-campaign database (migrations)")
    actions = p.add_subparsers(dest="action", required=True)
    m = actions.add_parser("migrate", help="bring the campaign database to the current schema")
    m.add_argument(
        "database",
        nargs="?",
        metavar="DB",
        help="file path or SQLAlchemy URL (default: $BLEU_STUDY_DB, else the user's data directory)",
    )
    from bleu_core.cli.pearmut_command import register_pearmut

    register_pearmut(actions)
    p.set_defaults(func=handler)


def handler(args: argparse.Namespace) -> int:
    if args.action in ("export-pearmut", "import-pearmut"):
        from bleu_core.cli.pearmut_command import pearmut_handler

        return pearmut_handler(args)
    from bleu_core.campaigns.connection import (
        display_database_url,
        make_engine,
        resolve_database_url,
    )
    from bleu_core.campaigns.migrate import migrate

    url = resolve_database_url(args.database)
    engine = make_engine(url)
    try:
        result = migrate(engine)
    finally:
        engine.dispose()
    where = display_database_url(url)
    if result.created:
        print(f"{where}: new database, tables created at revision {result.after}")
    elif result.before == result.after:
        print(f"{where}: already at revision {result.after}")
    else:
        before = result.before or "(none: made before migrations)"
        print(f"{where}: migrated from revision {before} to {result.after}")
    return 0
