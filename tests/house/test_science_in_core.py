"""The science lives in bleu_core, the UI presents it: app.py, pages/ and ui/ import no statistics library
(scipy, statsmodels, scikit-learn) and call none of numpy's or math's transcendental or dispersion
functions (exp, log, sqrt, std, var, corrcoef, cov...). A UI that needs such a number calls the core function
that computes it (one number, one truth).

Lazy imports inside functions count too. ``ui.app.warmup`` preloads ``scipy.stats`` by name, as a string
handed to importlib in a background thread: that computes nothing and is not an import this guard sees."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("scipy", "statsmodels", "sklearn")
MATHS = {
    "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "std", "nanstd", "var", "nanvar",
    "corrcoef", "cov", "erf", "lgamma", "gamma",
}  # fmt: skip
NAMESPACES = ("np", "numpy", "math")


def science_in(source: str, path: Path, root: Path) -> list[str]:
    """Each statistics-library import and numpy/math maths call of *source*, as ``file:line: what``."""
    where = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in NAMESPACES
            and node.attr in MATHS
        ):
            found.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr}")
            continue
        else:
            continue
        found += [
            f"{where}:{node.lineno}: import {n}" for n in names if n.split(".")[0] in LIBRARIES
        ]
    return found


def ui_files(root: Path) -> list[Path]:
    return [
        root / "app.py",
        *sorted((root / "pages").glob("*.py")),
        *sorted((root / "ui").rglob("*.py")),
    ]


def test_the_ui_computes_no_science():
    offenders = [
        line
        for path in ui_files(ROOT)
        if path.exists()
        for line in science_in(path.read_text(encoding="utf-8"), path, ROOT)
    ]
    assert offenders == []


def test_the_guard_finds_a_planted_violation(tmp_path: Path) -> None:
    (tmp_path / "ui" / "analysis").mkdir(parents=True)
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text("import numpy as np\nx = np.nan\n")
    page = tmp_path / "pages" / "rank.py"
    page.write_text(
        "import math\n\ndef f(x):\n    from scipy.stats import kendalltau\n    return math.log(x)\n"
    )
    helper = tmp_path / "ui" / "analysis" / "extra.py"
    helper.write_text(
        "import numpy as np\nimport statsmodels.api as sm\nr = np.corrcoef([1], [2])\n"
    )
    found = [
        line
        for path in ui_files(tmp_path)
        for line in science_in(path.read_text(encoding="utf-8"), path, tmp_path)
    ]
    assert sorted(found) == [
        "pages/rank.py:4: import scipy.stats",
        "pages/rank.py:5: math.log",
        "ui/analysis/extra.py:2: import statsmodels.api",
        "ui/analysis/extra.py:3: np.corrcoef",
    ]
