"""Downloads: tables as CSV and LaTeX, charts as PNG and SVG, and the reproducible zip.

The zip holds everything needed to re-make a result: the tables and charts, the signature, every BLEU
setting, the seed and resample count of resampling procedures, the reference streams used, software
versions, and the sha256 of every input file (plus a digest of the study's contents). Its bytes depend only
on its contents (fixed timestamps), so the same result exported twice gives the same zip.

Every CSV is written by :func:`bleu_core.csv_safety.write_safe_csv`: every field quoted, and any text that a
spreadsheet could read as a formula (a piece starting with ``=``, ``+``, ``-`` or ``@`` after a split on
``,``, ``;``, TAB, CR or LF) gets a leading ``'``; numbers stay numbers (the "CSV injection" guard).

>>> import pandas as pd
>>> print(frame_to_csv(pd.DataFrame({"system": ["A", "x;=cmd"], "BLEU": [12.3456, -1.5]})), end="")
"system","BLEU"
"A","12.3456"
"x;'=cmd","-1.5"
"""

from __future__ import annotations

import hashlib
import io
import json
import platform
import re
import threading
import weakref
import zipfile
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bleu_core.csv_safety import write_safe_csv
from bleu_core.engine.options import BleuOptions
from bleu_core.engine.segment_level import SEGMENT_RULE, segment_signature
from bleu_core.latex import tex
from bleu_core.study import Study
from bleu_core.study.criterion_order import criteria_order

ZIP_DATE = (2000, 1, 1, 0, 0, 0)

if TYPE_CHECKING:  # pandas lives in ui.analysis.frames; here it is only a type
    import pandas as pd


def _csv_value(value: Any) -> Any:
    """A cell for :func:`write_safe_csv`: missing values (None, NaN, NaT, pd.NA) empty, as pandas writes them."""
    import pandas as pd

    if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)):
        return ""
    return value


def frame_to_csv(frame: pd.DataFrame) -> str:
    """A DataFrame as CSV text (no index, full float precision), safe to open in a spreadsheet: every field
    quoted, formula-like text neutralised (:func:`bleu_core.csv_safety.write_safe_csv`), numbers kept.
    Column names of several levels are joined with " / "."""
    header = [
        " / ".join(str(part) for part in column) if isinstance(column, tuple) else str(column)
        for column in frame.columns
    ]
    rows = (
        [_csv_value(value) for value in row] for row in frame.itertuples(index=False, name=None)
    )
    return write_safe_csv(header, rows)


def frame_to_latex(frame: pd.DataFrame, *, caption: str = "", float_format: str = "{:.2f}") -> str:
    """A DataFrame as a LaTeX ``table`` (booktabs), numbers with two decimals, text escaped.

    >>> import pandas as pd
    >>> print(frame_to_latex(pd.DataFrame({"system": ["a_b"], "BLEU": [1.0]})).splitlines()[4])
    system & BLEU \\\\
    """
    styler = frame.style.hide(axis="index").format(
        float_format, subset=frame.select_dtypes("float").columns
    )
    styler = styler.format_index(escape="latex", axis=1).format(
        escape="latex", subset=frame.select_dtypes(exclude="number").columns
    )
    body = styler.to_latex(hrules=True, column_format="l" * len(frame.columns))
    caption_line = f"\\caption{{{tex(caption)}}}\n" if caption else ""
    return "\\begin{table}[ht]\n\\centering\n" + body + caption_line + "\\end{table}\n"


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of ``data``.

    >>> sha256_bytes(b"abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(data).hexdigest()


_DIGESTS: dict[int, tuple[weakref.ref, tuple, str]] = {}
"""id(study) -> (weak reference to it, stamp, digest); entries of collected studies are dropped."""
_DIGESTS_LOCK = threading.Lock()


def study_digest(study: Study) -> str:
    """sha256 of the study's contents (segments, references, systems, ratings, error spans, attached metric
    scores) in a canonical JSON form.

    It changes when any text or score changes and not when the study is re-loaded from another format.
    Computed once per study object (seconds on a 50-system × 10,000-segment study; studies are not
    changed in place: a change makes a new study object), shared by every session and every Export visit.
    """
    stamp = (
        len(study.segments), len(study.ratings), tuple(study.systems), tuple(study.references),
        tuple(study.metric_scores),
    )  # fmt: skip
    with _DIGESTS_LOCK:
        known = _DIGESTS.get(id(study))
    if known is not None and known[0]() is study and known[1] == stamp:
        return known[2]
    digest = _study_digest(study)
    with _DIGESTS_LOCK:
        for key in [k for k, v in _DIGESTS.items() if v[0]() is None]:
            del _DIGESTS[key]
        _DIGESTS[id(study)] = (weakref.ref(study), stamp, digest)
    return digest


def _study_digest(study: Study) -> str:
    content = {
        "segments": [[s.id, s.doc_id, s.source] for s in study.segments],
        "references": {k: list(v) for k, v in sorted(study.references.items())},
        "systems": {k: list(v) for k, v in sorted(study.systems.items())},
        "human_systems": sorted(study.human_systems),
        "ratings": sorted(
            [r.system, r.segment_id or "", r.rater or "", r.group or "", r.criterion, repr(r.score)]
            for r in study.ratings
        ),
        "error_spans": sorted(
            [s.system, s.segment_id, s.rater or "", s.side, s.start, s.end, s.category, s.severity]
            for s in study.error_spans
        ),
    }
    if study.metric_scores:  # only when present: the digest of a study without them stays as it was
        content["metric_scores"] = {
            name: [m.higher_is_better, m.system, m.segment, m.document]
            for name, m in sorted(study.metric_scores.items())
        }
    return sha256_bytes(json.dumps(content, ensure_ascii=False, sort_keys=True).encode("utf-8"))


def software_versions() -> dict[str, str]:
    """Versions of the software that computed the result."""
    from importlib.metadata import PackageNotFoundError, version

    versions = {"python": platform.python_version()}
    for name in ("bleu-study", "sacrebleu", "numpy", "scipy", "pandas", "altair", "streamlit"):
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _json_value(value: Any) -> Any:
    """A setting as JSON: tuples as lists, anything else JSON cannot hold as its text."""
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def app_settings(state: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """Every setting of the session that a page reads (the persistent widget keys, ``keys``), by key.

    >>> app_settings({"opt_smooth": "floor", "seed": 7, "other": 1}, ["seed", "opt_smooth", "absent"])
    {'opt_smooth': 'floor', 'seed': 7}
    """
    return {key: _json_value(state[key]) for key in sorted(set(keys)) if key in state}


def settings_record(
    *,
    options: BleuOptions,
    signature: str,
    references: Iterable[str],
    study: Study,
    study_label: str,
    inputs: Iterable[Mapping[str, Any]],
    seed: int | None,
    n_resamples: int | None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything that determines the exported numbers, as a JSON-ready dict.

    ``signature`` is corpus BLEU's; the segment level's (sacrebleu's ``sentence_bleu``, effective
    order) is recorded beside it. ``extra`` adds the page settings (:func:`app_settings`)."""
    return {
        "signature": signature,
        "segment_level": {
            "rule": SEGMENT_RULE,
            "signature": segment_signature(options, list(references)),
        },
        "bleu_options": options.to_dict(),
        "references_used": list(references),
        "study": {
            "name": study.name,
            "opened_from": study_label,
            "segments": study.n_segments,
            "systems": list(study.systems),
            "human_systems": sorted(study.human_systems),
            "criteria": criteria_order(study.criteria),
            "content_sha256": study_digest(study),
        },
        "input_files": [dict(item) for item in inputs],
        "resampling": {"seed": seed, "n_resamples": n_resamples},
        "software": software_versions(),
        **(dict(extra) if extra else {}),
    }


def build_zip(members: Mapping[str, bytes | str]) -> bytes:
    """A deflated zip of ``{path: content}`` with fixed timestamps (same contents → same bytes).

    >>> data = build_zip({"a.txt": "hi"})
    >>> zipfile.ZipFile(io.BytesIO(data)).read("a.txt"), data == build_zip({"a.txt": "hi"})
    (b'hi', True)
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, content.encode("utf-8") if isinstance(content, str) else content)
    return buffer.getvalue()


def export_stem(name: str) -> str:
    """The one file-name scheme of every download and of the zip: lower-case letters and digits,
    every other run of characters one ``-`` (``bleu-vs-da_z`` and ``BLEU vs DA z`` are one name).

    >>> export_stem("BLEU vs human: MQM (all raters)"), export_stem("bleu-vs-da_z"), export_stem("é")
    ('bleu-vs-human-mqm-all-raters', 'bleu-vs-da-z', 'export')
    """
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "export"


README_TEMPLATE = """bleu-study reproducible export
==============================

Study: {study} (opened from: {label})
Signature: {signature}

Contents
  settings.json   every BLEU setting and page setting, the reference streams used, the segment-level
                  signature, seed and resample count, software versions, sha256 of each input file
                  and of the study's contents
  signature.txt   the BLEU signature of the settings
  tables/         tables as CSV (full precision) and LaTeX (booktabs)
  charts/         charts as PNG and SVG, and the Vega-Lite spec (.vl.json) they were drawn from

To re-make the numbers, load the same inputs (check their sha256 against settings.json) in bleu-study
with the settings in settings.json, e.g. on the command line:

{commands}"""


def cli_flags(options: BleuOptions) -> str:
    """The command-line flags of ``python -m bleu_core score`` for these options.

    >>> cli_flags(BleuOptions(max_order=2, smooth="floor"))
    '--tokenize 13a --max-order 2 --ref-length closest --smooth floor'
    """
    flags = [f"--tokenize {options.tokenize}"]
    if options.lowercase:
        flags.append("--lowercase")
    flags.append(f"--max-order {options.max_order}")
    if options.weights is not None:
        flags.append("--weights " + " ".join(f"{w:g}" for w in options.weights))
    flags.append(f"--ref-length {options.ref_length}")
    flags.append(f"--smooth {options.smooth}")
    if options.smooth_value is not None:
        flags.append(f"--smooth-value {options.smooth_value:g}")
    if options.effective_order:
        flags.append("--effective-order")
    return " ".join(flags)


def reproducible_zip(
    *,
    settings: Mapping[str, Any],
    tables: Mapping[str, tuple[pd.DataFrame, str]],
    charts: Mapping[str, Any],
    render_png: Any,
    render_svg: Any,
    commands: str | None = None,
) -> bytes:
    """The reproducible zip.

    Args:
        settings: :func:`settings_record` output.
        tables: ``{stem: (frame, caption)}``.
        charts: ``{stem: altair chart or its Vega-Lite JSON}``.
        render_png, render_svg: functions spec-JSON → PNG bytes / SVG text (vl-convert, cached by the caller).
        commands: the README's command lines that rebuild the numbers (default: the ``score`` command).
    """
    options = settings["bleu_options"]
    members: dict[str, bytes | str] = {
        "README.txt": README_TEMPLATE.format(
            study=settings["study"]["name"],
            label=settings["study"]["opened_from"],
            signature=settings["signature"],
            commands=commands
            or f"  python -m bleu_core score -r REF... -i HYP... {cli_flags(BleuOptions(**options))}\n",
        ),
        "settings.json": json.dumps(settings, indent=2, ensure_ascii=False, default=str) + "\n",
        "signature.txt": settings["signature"] + "\n",
    }
    for name, (frame, caption) in sorted(tables.items(), key=lambda item: item[0]):
        stem = export_stem(name)
        members[f"tables/{stem}.csv"] = frame_to_csv(frame)
        members[f"tables/{stem}.tex"] = frame_to_latex(frame, caption=caption)
    for name, chart in sorted(charts.items(), key=lambda item: item[0]):
        stem = export_stem(name)
        spec = chart if isinstance(chart, str) else chart.to_json()
        members[f"charts/{stem}.vl.json"] = spec
        members[f"charts/{stem}.png"] = render_png(spec)
        members[f"charts/{stem}.svg"] = render_svg(spec)
    return build_zip(members)
