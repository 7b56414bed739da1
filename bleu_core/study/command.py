"""The ``study`` sub-command: load a study in any format and print what is in it.

``python -m bleu_core study PATH [--pair xx-yy] [--references A,B|all] [--format text|json]`` prints the number of
segments and documents, the reference streams, the systems, the criteria with their rated-item counts, and per
system its corpus BLEU against all references (engine defaults) and its mean human score per criterion.
``PATH`` may be a bundled demo: ``demo:ted-en-de``, ``demo:ted-zh-en``, ``demo:paper-examples``.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from bleu_core.limits import max_bytes_from_mb, parse_max_mb
from bleu_core.study.loading import load_study
from bleu_core.study.model import LoadResult, Study

__all__ = ["handler", "register", "summarize"]


def _system_bleu(study: Study, name: str) -> dict[str, Any]:
    from bleu_core import corpus_bleu
    from bleu_core.tokenizers import tokenizer_for_language

    texts = study.systems[name]
    keep = [i for i, text in enumerate(texts) if text is not None]
    if not keep:
        return {"bleu": None, "segments": 0, "signature": None}
    hypotheses = [texts[i] for i in keep]
    streams = [[stream[i] for i in keep] for stream in study.references.values()]
    score = corpus_bleu(hypotheses, streams, tokenize=tokenizer_for_language(study.target_lang))
    return {"bleu": score.score, "segments": len(keep), "signature": score.signature}


def summarize(result: LoadResult) -> dict[str, Any]:
    """The summary the ``study`` command prints, as a JSON-ready dictionary."""
    study = result.study
    criteria = []
    for name, criterion in study.criteria.items():
        criteria.append(
            {
                "name": name,
                "higher_is_better": criterion.higher_is_better,
                "scale": None if criterion.scale is None else list(criterion.scale),
                "rated_items": study.rated_items(name),
                "system_level_ratings": sum(
                    1 for r in study.ratings if r.criterion == name and r.segment_id is None
                ),
                "description": criterion.description,
            }
        )
    human_means = {name: study.system_scores(name) for name in study.criteria}
    systems = []
    signature = None
    for name in study.systems:
        bleu = _system_bleu(study, name)
        signature = signature or bleu["signature"]
        systems.append(
            {
                "name": name,
                "human_translation": name in study.human_systems,
                "bleu": bleu["bleu"],
                "bleu_segments": bleu["segments"],
                "human": {
                    c: (None if math.isnan(v[name]) else v[name]) for c, v in human_means.items()
                },
            }
        )
    return {
        "name": study.name,
        "source_lang": study.source_lang,
        "target_lang": study.target_lang,
        "segments": study.n_segments,
        "documents": len(study.doc_ids()),
        "references": list(study.references),
        "systems": systems,
        "criteria": criteria,
        "bleu_signature": signature,
        "esa": _esa_table(study),
        "warnings": [
            {"code": w.code, "message": w.message, "file": w.file, "line": w.line}
            for w in result.warnings
        ],
    }


def _esa_table(study: Study) -> list[dict[str, Any]] | None:
    """Every ESA-rated translation (reference streams included), best first by WMT24's figure."""
    if "esa" not in study.criteria:
        return None
    from bleu_core.study.formats.esa import esa_system_scores

    return [score.to_dict() for score in esa_system_scores(study)]


def _esa_lines(table: list[dict[str, Any]]) -> list[str]:
    domains = sorted({d for row in table for d in row["domains"]})
    width = max([len("translation")] + [len(row["system"]) + 2 for row in table])
    lines = [
        "",
        "ESA, every rated translation (* human, R reference stream); wmt = mean over domains of the "
        "per-domain means (WMT24's figure), mean = mean of all ratings:",
        f"{'translation':<{width}}  {'n':>5}  {'mean':>7}  {'wmt':>7}"
        + "".join(f"  {d:>9}" for d in domains),
    ]
    for row in table:
        mark = " R" if row["reference"] else (" *" if row["human"] else "")
        lines.append(
            f"{row['system'] + mark:<{width}}  {row['n']:>5}  {row['mean']:>7.2f}  {row['wmt']:>7.2f}"
            + "".join(f"  {_fmt(row['domains'].get(d)):>9}" for d in domains)
        )
    return lines


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_text(summary: dict[str, Any]) -> str:
    """Human-readable rendering of :func:`summarize` output."""
    lines = [f"study: {summary['name']}"]
    if summary["source_lang"] or summary["target_lang"]:
        lines.append(
            f"languages: {summary['source_lang'] or '?'} -> {summary['target_lang'] or '?'}"
        )
    lines.append(f"segments: {summary['segments']}   documents: {summary['documents']}")
    lines.append(f"references ({len(summary['references'])}): {', '.join(summary['references'])}")
    lines.append(f"systems: {len(summary['systems'])}")
    if summary["criteria"]:
        lines.append("criteria:")
        for c in summary["criteria"]:
            direction = "higher is better" if c["higher_is_better"] else "lower is better"
            scale = "" if c["scale"] is None else f", scale {c['scale'][0]:g}..{c['scale'][1]:g}"
            system_level = (
                f", {c['system_level_ratings']} system-level scores"
                if c["system_level_ratings"]
                else ""
            )
            lines.append(
                f"  {c['name']}: {c['rated_items']} rated items{system_level} ({direction}{scale})"
            )
    else:
        lines.append("criteria: none (no human ratings)")
    names = [c["name"] for c in summary["criteria"]]
    width = max([len("system")] + [len(s["name"]) + 2 for s in summary["systems"]])
    header = f"{'system':<{width}}  {'BLEU':>6}" + "".join(f"  {n:>12}" for n in names)
    lines.append("")
    lines.append(header)
    for s in summary["systems"]:
        label = s["name"] + (" *" if s["human_translation"] else "")
        row = f"{label:<{width}}  {_fmt(s['bleu']):>6}"
        row += "".join(f"  {_fmt(s['human'][n], 3):>12}" for n in names)
        if s["bleu_segments"] != summary["segments"]:
            row += f"   (BLEU on {s['bleu_segments']} segments with output)"
        lines.append(row)
    if any(s["human_translation"] for s in summary["systems"]):
        lines.append("* human translation")
    if summary["bleu_signature"]:
        lines.append(f"BLEU against all references; signature: {summary['bleu_signature']}")
    if summary.get("esa"):
        lines.extend(_esa_lines(summary["esa"]))
    for w in summary["warnings"]:
        where = ", ".join(
            p for p in (w["file"], None if w["line"] is None else f"line {w['line']}") if p
        )
        lines.append(f"warning [{w['code']}]: " + (f"{where}: " if where else "") + w["message"])
    return "\n".join(lines)


def handler(args: argparse.Namespace) -> int:
    """Run the ``study`` command (errors propagate as :class:`~bleu_core.errors.BleuStudyError`)."""
    from bleu_core.study.reference_choice import references_from_cli

    reference = references_from_cli(args.references)
    result = load_study(
        args.path,
        pair=args.pair,
        reference=reference or None,
        max_bytes=max_bytes_from_mb(args.max_mb),
    )
    if getattr(args, "esa", None):
        from bleu_core.cli_options import with_esa_files

        result = with_esa_files(result, args.esa, max_bytes_from_mb(args.max_mb))
    if getattr(args, "metric_scores", None):
        from dataclasses import replace

        from bleu_core.study.metric_scores import attach_metric_scores, read_metric_scores

        scores = read_metric_scores(args.metric_scores, result.study)
        result = replace(result, study=attach_metric_scores(result.study, scores))
    summary = summarize(result)
    attached = getattr(result.study, "metric_scores", {}) or {}
    if attached:  # metrics scored elsewhere (--metric-scores)
        summary["metric_scores"] = [
            {
                "name": m.name,
                "levels": list(m.levels),
                "higher_is_better": m.higher_is_better,
                "source": m.source,
            }
            for m in attached.values()
        ]
    if args.format == "json":
        print(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        print(format_text(summary))
        for m in summary.get("metric_scores", []):
            print(f"attached metric {m['name']}: levels {', '.join(m['levels'])} ({m['source']})")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``study`` sub-command to an argparse ``subparsers`` object."""
    from bleu_core.cli_options import add_esa_option

    parser = subparsers.add_parser(
        "study",
        help="load a study (folder, zip, table, saved study or demo:NAME) and summarise it",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    parser.add_argument(
        "path",
        metavar="PATH",
        help="study file or folder, or a bundled demo: demo:ted-en-de, demo:ted-zh-en, "
        "demo:paper-examples",
    )
    parser.add_argument("--pair", metavar="xx-yy", help="language pair of a WMT release")
    parser.add_argument(
        "--references",
        "--reference",
        dest="references",
        nargs="+",
        metavar="NAME",
        help="human translation(s) to use as reference streams: A,B (letters or names) or 'all'; "
        "the others become human systems (MQM TSV: e.g. refB)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_esa_option(parser)
    parser.add_argument(
        "--metric-scores",
        nargs="+",
        metavar="FILE_OR_DIR",
        help="scores of metrics computed elsewhere: MTME *.score files (NAME-REF.LEVEL.score), a "
        "CSV/TSV with system,segment_id,metric,score, or a WMT automatic-scores.tsv",
    )
    parser.add_argument(
        "--max-mb", type=parse_max_mb, default=200, help="refuse files larger than this (MB)"
    )
    parser.set_defaults(func=handler)
