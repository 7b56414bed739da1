"""One correlation path: only ``bleu_core/maths/correlation.py`` and ``bleu_core/maths/regression.py`` call scipy's or numpy's
correlation and line-fitting functions; every other module (pages, Babych's tables, the parameter explorer,
agreement, the lesson, the mistake detectors, the meta-evaluation) goes through them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWNERS = {"bleu_core/maths/correlation.py", "bleu_core/maths/regression.py"}
FUNCTIONS = {"pearsonr", "spearmanr", "kendalltau", "linregress", "corrcoef", "polyfit"}


def _direct_calls(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every call of a correlation or fitting function in ``source``.

    Kendall's tau-c (``variant="c"``, mt-metrics-eval's segment statistic in ``evaluation/ties.py``) is another
    statistic, not a second copy of tau-b, so it is not counted.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        variant = {k.arg: k.value for k in node.keywords}.get("variant")
        tau_c = isinstance(variant, ast.Constant) and variant.value == "c"
        if name in FUNCTIONS and not tau_c:
            found.append((node.lineno, name))
    return found


def test_the_detector_sees_a_second_path() -> None:
    assert _direct_calls("r = stats.pearsonr(a, b)\nslope = np.polyfit(x, y, 1)") == [
        (1, "pearsonr"),
        (2, "polyfit"),
    ]
    assert _direct_calls('t = kendalltau(y, x, variant="c")[0]') == []


def test_only_the_core_correlates() -> None:
    files = [p for room in ("bleu_core", "ui", "pages") for p in (ROOT / room).rglob("*.py")]
    offenders = [
        f"{path.relative_to(ROOT)}:{line} calls {name}"
        for path in sorted(files)
        if path.relative_to(ROOT).as_posix() not in OWNERS
        for line, name in _direct_calls(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
