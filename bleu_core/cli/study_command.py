"""The ``study`` sub-command: load a study in any format and print what is in it.

``python -m bleu_core study PATH [--pair xx-yy] [--references A,B|all] [--format text|json]`` prints the number of
segments and documents, the reference streams, the systems, the criteria with their rated-item counts, and per
system its corpus BLEU against all references (engine defaults) and its mean human score per criterion.
``PATH`` may be a bundled demo: ``demo:ted-en-de``, ``demo:ted-zh-en``, ``demo:paper-examples``.

A study whose segments name at least two domains (WMT24+: news, social, speech, literary) also gets each
system's BLEU and human scores per domain, the table of the app's Corpus page. ``--domain NAME`` summarises
the segments of that domain only, as the app's sidebar domain choice does.

A study with two or more human translations (WMT21 en-de's A, C and D; WMT26's from-scratch and post-edited
references) also gets the reference bias (:mod:`bleu_core.study.reference_bias`): each system's BLEU and rank
under each reference alone, the rank change, and the system each reference is closest to.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from bleu_core.cli import strict_json
from bleu_core.limits import max_bytes_from_mb, parse_max_mb
from bleu_core.study.loading import load_study
from bleu_core.study.model import LoadResult, Study

__all__ = ["WHOLE_STUDY", "handler", "register", "summarize"]

WHOLE_STUDY = "whole study"
"""What a load-time warning describes under ``--domain``: the study as loaded, not the domain's cut."""


def corpus_table(study: Study) -> tuple[Any, Any, dict[str, Any]] | None:
    """``(statistics, options, {system: corpus BLEU entry})``: every system's corpus BLEU against all
    references (engine defaults, the target language's tokenizer) from
    :func:`bleu_core.study.output_rows.study_statistics` and
    :func:`~bleu_core.study.output_rows.study_corpus_bleu`, the app's Corpus page numbers; segments
    without the system's output are not counted (``bleu_segments``). None for a study without systems."""
    if not study.systems:
        return None
    from bleu_core.engine.options import BleuOptions
    from bleu_core.engine.signature import make_signature
    from bleu_core.study.output_rows import output_mask, study_corpus_bleu, study_statistics
    from bleu_core.tokenize.tokenizers import tokenizer_for_language

    names = list(study.systems)
    options = BleuOptions(tokenize=tokenizer_for_language(study.target_lang))
    stats = study_statistics(study, names, list(study.references), options)
    present = output_mask(study, names)
    scores = study_corpus_bleu(stats, present, options)
    # the references by name, as meta, significance and every page sign (nrefs:1|refs:ref-A)
    signature = make_signature(options, list(study.references))
    entries = {
        name: {
            "bleu": float(scores.score[k]) if present[k].any() else None,
            "segments": int(present[k].sum()),
            "signature": signature,
        }
        for k, name in enumerate(names)
    }
    return stats, options, entries


def summarize(result: LoadResult, table: Any = None) -> dict[str, Any]:
    """The summary the ``study`` command prints, as a JSON-ready dictionary (``table``:
    :func:`corpus_table` of the study when already made)."""
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
    table = table if table is not None else corpus_table(study)
    corpus = {} if table is None else table[2]
    signature = next((b["signature"] for b in corpus.values() if b["bleu"] is not None), None)
    from bleu_core.study.output_rows import blank_outputs

    blank = blank_outputs(study)  # scored as empty outputs (counted), unlike missing segments
    for name in study.systems:
        bleu = corpus[name]
        systems.append(
            {
                "name": name,
                "human_translation": name in study.human_systems,
                "bleu": bleu["bleu"],
                "bleu_segments": bleu["segments"],
                "blank_outputs": blank[name],
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
        "bleu_missing_outputs": _missing_rule(systems, study.n_segments),
        "esa": _esa_table(study),
        "warnings": [
            {"code": w.code, "message": w.message, "file": w.file, "line": w.line}
            for w in result.warnings
        ],
    }


def _missing_rule(systems: list[dict[str, Any]], n_segments: int) -> str | None:
    """How BLEU counted the segments some system has no output for (None when none lacks any)."""
    from bleu_core.study.output_rows import MISSING_OUTPUT_RULE

    return MISSING_OUTPUT_RULE if any(s["bleu_segments"] < n_segments for s in systems) else None


def _esa_table(study: Study) -> list[dict[str, Any]] | None:
    """Every ESA-rated translation (reference streams included), best first by WMT24's figure."""
    if "esa" not in study.criteria:
        return None
    from bleu_core.study.formats.esa import esa_system_scores

    return [score.to_dict() for score in esa_system_scores(study)]


def _esa_lines(table: list[dict[str, Any]]) -> list[str]:
    from bleu_core.study.system_names import system_label

    domains = sorted({d for row in table for d in row["domains"]})
    human = {row["system"] for row in table if row["reference"] or row["human"]}
    names = [system_label(row["system"], human) for row in table]  # HUMAN-A (ref-A), as every page
    width = max([len("translation")] + [len(n) + 2 for n in names])
    lines = [
        "",
        "ESA, every rated translation (R: a reference stream, not scored as a system); wmt = mean over "
        "domains of the per-domain means (WMT24's figure), mean = mean of all ratings:",
        f"{'translation':<{width}}  {'n':>5}  {'mean':>7}  {'wmt':>7}"
        + "".join(f"  {d:>9}" for d in domains),
    ]
    for row, name in zip(table, names, strict=True):
        mark = " R" if row["reference"] else ""
        lines.append(
            f"{name + mark:<{width}}  {row['n']:>5}  {row['mean']:>7.2f}  {row['wmt']:>7.2f}"
            + "".join(f"  {_fmt(row['domains'].get(d)):>9}" for d in domains)
        )
    return lines


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _number(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def per_domain(study: Study, table: Any = None) -> dict[str, Any] | None:
    """Every system's BLEU and human scores per domain (None for a study with fewer than two domains):
    :func:`bleu_core.evaluation.domains.compare_by_domain` on the statistics of every segment, the call that
    makes the app's per-domain table on the Corpus page. BLEU of a domain: its segments' statistics
    summed, scored once (engine defaults, the target language's tokenizer; segments without the system's
    output not counted); a criterion's score there: the mean over the system's rated segments of the
    domain (None where it has none). ``table``: :func:`corpus_table` of ``study`` when already made."""
    from bleu_core.study.granularity import domain_names

    if len(domain_names(study)) < 2 or not study.systems:
        return None
    from bleu_core.evaluation.domains import compare_by_domain
    from bleu_core.study.criterion_order import criteria_order

    found = table if table is not None else corpus_table(study)
    if found is None:
        return None
    stats, options, _ = found
    bleu = compare_by_domain(study, stats, options, None)
    human = {
        c: compare_by_domain(study, stats, options, c).human for c in criteria_order(study.criteria)
    }
    return {
        "domains": list(bleu.domains),
        "systems": [
            {
                "name": name,
                "bleu": {d: _number(bleu.bleu[i, k]) for k, d in enumerate(bleu.domains)},
                "human": {
                    c: {d: _number(values[i, k]) for k, d in enumerate(bleu.domains)}
                    for c, values in human.items()
                },
            }
            for i, name in enumerate(bleu.systems)
        ],
    }


def _per_domain_lines(table: dict[str, Any], human: set[str]) -> list[str]:
    """The per-domain table of :func:`per_domain` as text: a block for BLEU, then one per criterion, a
    column per domain; ``human`` translations by both names (``HUMAN-B (ref-B)``)."""
    from bleu_core.study.system_names import system_label

    domains, rows = table["domains"], table["systems"]
    width = max([len("system")] + [len(system_label(r["name"], human)) for r in rows])
    blocks = [("BLEU", [r["bleu"] for r in rows], 2)]
    for criterion in rows[0]["human"] if rows else ():
        blocks.append((criterion, [r["human"][criterion] for r in rows], 3))
    lines = [
        "",
        "per domain (BLEU: the domain's statistics summed, scored once; human: the mean over the "
        "system's rated segments of the domain):",
    ]
    for label, cells, digits in blocks:
        lines.append(f"{label:<{width}}" + "".join(f"  {d:>10}" for d in domains))
        for row, cell in zip(rows, cells, strict=True):
            name = system_label(row["name"], human)  # HUMAN-B (ref-B)
            lines.append(
                f"{name:<{width}}" + "".join(f"  {_fmt(cell[d], digits):>10}" for d in domains)
            )
    return lines


def format_text(summary: dict[str, Any]) -> str:
    """Human-readable rendering of :func:`summarize` output."""
    lines = [f"study: {summary['name']}"]
    if summary.get("domain"):
        from bleu_core.cli.options import domain_line

        lines.append(domain_line(summary["domain"]))
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
    from bleu_core.study.system_names import system_label

    names = [c["name"] for c in summary["criteria"]]
    human = {s["name"] for s in summary["systems"] if s["human_translation"]}
    width = max([len("system")] + [len(system_label(s["name"], human)) for s in summary["systems"]])
    header = f"{'system':<{width}}  {'BLEU':>6}" + "".join(f"  {n:>12}" for n in names)
    lines.append("")
    lines.append(header)
    for s in summary["systems"]:
        label = system_label(s["name"], human)  # HUMAN-B (ref-B), as every page shows it
        row = f"{label:<{width}}  {_fmt(s['bleu']):>6}"
        row += "".join(f"  {_fmt(s['human'][n], 3):>12}" for n in names)
        if s["bleu_segments"] != summary["segments"]:
            row += f"   (BLEU on the {s['bleu_segments']} of {summary['segments']} segments with output)"
        lines.append(row)
    if summary["bleu_signature"]:
        lines.append(f"BLEU against all references; signature: {summary['bleu_signature']}")
    if summary.get("bleu_missing_outputs"):
        lines.append(f"segments without output: {summary['bleu_missing_outputs']}")
    if summary.get("analysis_signature"):
        lines.append(f"analysis signature: {summary['analysis_signature']}")
    if summary.get("per_domain"):
        human = {s["name"] for s in summary["systems"] if s["human_translation"]}
        lines.extend(_per_domain_lines(summary["per_domain"], human))
    if summary.get("esa"):
        lines.extend(_esa_lines(summary["esa"]))
    if summary.get("reference_bias"):
        from bleu_core.study.reference_bias import format_bias_lines

        lines.extend(format_bias_lines(summary["reference_bias"]))
    for w in summary["warnings"]:
        where = ", ".join(
            p for p in (w["file"], None if w["line"] is None else f"line {w['line']}") if p
        )
        scope = f" ({w['scope']})" if w.get("scope") else ""
        lines.append(
            f"warning [{w['code']}]{scope}: " + (f"{where}: " if where else "") + w["message"]
        )
    return "\n".join(lines)


def _summary_on_domain(result: LoadResult, domain: str | None) -> dict[str, Any]:
    """:func:`summarize` of the study cut to ``domain`` (``--domain``; the whole study without one), which
    then names the domain (``domain``, and ``analysis_signature`` with ``domain:NAME``); ``per_domain``:
    the per-domain table of a study with at least two domains (:func:`per_domain`)."""
    from dataclasses import replace

    from bleu_core.cli.options import restrict_domain
    from bleu_core.engine.signature import analysis_signature

    study, about = restrict_domain(result.study, domain)
    table = corpus_table(study)
    summary = summarize(replace(result, study=study), table)
    summary["domain"] = about
    for warning in summary["warnings"] if about is not None else ():
        warning["scope"] = WHOLE_STUDY  # found when loading: about the files, not the domain's cut
    if about is not None and summary["bleu_signature"]:
        summary["analysis_signature"] = analysis_signature(
            summary["bleu_signature"], systems=len(summary["systems"]), domain=about["name"]
        )
    summary["per_domain"] = per_domain(study, table)
    from bleu_core.study.reference_bias import bias_summary

    summary["reference_bias"] = bias_summary(study)  # two or more human translations
    return summary


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
    if getattr(args, "esa", None) or getattr(args, "keep_judge", None):
        from bleu_core.cli.options import with_esa_files

        result = with_esa_files(
            result,
            args.esa,
            max_bytes_from_mb(args.max_mb),
            pair=args.pair,
            keep=getattr(args, "keep_judge", ()),
        )
    if getattr(args, "metric_scores", None):
        from dataclasses import replace

        from bleu_core.study.metric_scores import attach_metric_scores, read_metric_scores

        scores = read_metric_scores(args.metric_scores, result.study)
        result = replace(result, study=attach_metric_scores(result.study, scores))
    summary = _summary_on_domain(result, getattr(args, "domain", None))
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
        print(strict_json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        print(format_text(summary))
        for m in summary.get("metric_scores", []):
            print(f"attached metric {m['name']}: levels {', '.join(m['levels'])} ({m['source']})")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``study`` sub-command to an argparse ``subparsers`` object."""
    from bleu_core.cli.options import PAIR_HELP, add_domain_option, add_esa_option

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
    parser.add_argument("--pair", metavar="xx-yy", help=PAIR_HELP)
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
    add_domain_option(parser)
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
