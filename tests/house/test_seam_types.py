"""The types that cross the seams are named: a parameter called ``study`` or ``options`` (``_study``,
``_options`` for Streamlit's unhashed cache arguments) is annotated with :class:`~bleu_core.study.model.Study`
or :class:`~bleu_core.engine.options.BleuOptions` (``| None`` where it may be absent), never ``Any``, so that mypy
(``make test``, on ``bleu_core``) and a reader can follow them. Checked with :mod:`ast` in ``bleu_core``,
``ui``, ``pages`` and ``app.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEAMS = {"study": "Study", "_study": "Study", "options": "BleuOptions", "_options": "BleuOptions"}


def loose_seams(source: str, where: str) -> list[str]:
    """``file:line name: annotation`` of every ``study`` / ``options`` parameter annotated ``Any``.

    >>> loose_seams("def f(study: Any, options: 'BleuOptions | None' = None, x: Any = 1): ...", "m.py")
    ['m.py:1 study: Any']
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            params = [ast.arg(arg=node.target.id, annotation=node.annotation, lineno=node.lineno)]
        else:
            continue
        for p in params:
            if p.arg in SEAMS and p.annotation is not None:
                text = ast.unparse(p.annotation).strip("'\"")
                if text == "Any" or text.startswith("Any ") or text.endswith("| Any"):
                    found.append(f"{where}:{p.lineno} {p.arg}: {text}")
    return found


def test_study_and_options_parameters_carry_their_types() -> None:
    files = [*ROOT.joinpath("bleu_core").rglob("*.py"), *ROOT.joinpath("ui").rglob("*.py")]
    files += [*ROOT.joinpath("pages").glob("*.py"), ROOT / "app.py"]
    found = [
        hit
        for path in sorted(files)
        for hit in loose_seams(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == [], "name the type (Study, BleuOptions) instead of Any:\n" + "\n".join(found)
