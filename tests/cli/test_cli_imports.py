"""``bleu-study score`` loads only what scoring needs: every module it does not use costs start-up time.

Each test runs a fresh interpreter (``python -c``) so that nothing imported by pytest or by other tests hides a
heavy import; it prints ``sorted(sys.modules)`` after the command, and the test checks the list.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Never needed to score files: statistics (scipy), tables (pandas), sacrebleu's metrics and datasets (its
#: package ``__init__`` imports them all; only its tokenizers are ours to use), the app, the old JIT.
FORBIDDEN = (
    "scipy",
    "pandas",
    "streamlit",
    "numba",
    "sacrebleu.metrics",
    "sacrebleu.compat",
    "sacrebleu.dataset",
    "sacrebleu.utils",
    "portalocker",
    "bleu_core.evaluation",
    "bleu_core.metrics",
    "bleu_core.campaigns",
    "numpy.ma",  # numpy 2 loads it on first np.unique: 30-200 ms
)


def modules_after(code: str, tmp_path: Path) -> list[str]:
    """``sorted(sys.modules)`` of a fresh interpreter after ``code`` (which may use ``REF`` and ``HYP``)."""
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    # More segments than bleu_core.fast.corpus.SMALL_CORPUS: the batched path runs.
    ref.write_text("The cat sat on the mat.\nIt is raining.\n" * 20, encoding="utf-8")
    hyp.write_text("The cat is on the mat.\nIt rains.\n" * 20, encoding="utf-8")
    program = (
        f"import json, sys\nREF, HYP = {str(ref)!r}, {str(hyp)!r}\n{code}\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in FORBIDDEN)]


def test_score_command_imports_no_heavy_module(tmp_path: Path) -> None:
    modules = modules_after(
        "from bleu_core.cli import main\nassert main(['score', '-r', REF, '-i', HYP]) == 0",
        tmp_path,
    )
    # 13a files are scored from their bytes in C (bleu_core.fast.file_bleu): no tokenizer module, no numpy
    assert "bleu_core.fast.file_bleu" in modules
    assert "bleu_core.fast.batch_tokenizers" not in modules and "numpy" not in modules
    assert heavy(modules) == []


#: Never needed by ``significance`` with files: statistics from scipy, tables, sacrebleu's metrics, the app and
#: the other commands' modules (``main`` builds only the parser of the command it runs), the study package (only
#: a study PATH needs it) and numpy.ma (``np.quantile`` loads it: bleu_core.maths.resampling sorts instead).
SIGNIFICANCE_FORBIDDEN = (
    *(
        m for m in FORBIDDEN if m != "bleu_core.evaluation"
    ),  # what scoring files never needs, but statistics
    "bleu_core.study",  # bleu_core.cli.study_command included
    "bleu_core.cli.launch",
    "bleu_core.cli.spans_command",
    "tomllib",
)


def test_significance_command_imports_no_heavy_module(tmp_path: Path) -> None:
    modules = modules_after(
        "from bleu_core.cli import main\n"
        "assert main(['significance', '-r', REF, '-i', HYP, REF, '--n-resamples', '20']) == 0",
        tmp_path,
    )
    assert "bleu_core.evaluation.bootstrap" in modules
    # 13a files' per-segment statistics come from their bytes in C: no tokenizer module
    assert "bleu_core.fast.file_bleu" in modules
    assert "bleu_core.fast.batch_tokenizers" not in modules
    found = [
        m for m in modules if any(m == p or m.startswith(p + ".") for p in SIGNIFICANCE_FORBIDDEN)
    ]
    assert found == []


def test_help_still_imports_every_command(tmp_path: Path) -> None:
    """The probe of the test above can fail: ``--help`` builds every parser, so the app launcher loads."""
    modules = modules_after(
        "from bleu_core.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
        tmp_path,
    )
    assert {
        "bleu_core.cli.launch",
        "bleu_core.cli.spans_command",
        "bleu_core.cli.study_command",
    } <= set(modules)


def test_corpus_bleu_from_python_imports_no_heavy_module(tmp_path: Path) -> None:
    modules = modules_after(
        "import bleu_core\nassert bleu_core.corpus_bleu(['a b c'], [['a b c']]).score == 0.0",
        tmp_path,
    )
    assert heavy(modules) == []


def test_the_probe_sees_heavy_imports(tmp_path: Path) -> None:
    """The check can fail: a program that does import sacrebleu's metrics is caught."""
    modules = modules_after("import bleu_core\nimport sacrebleu\nsacrebleu.corpus_bleu", tmp_path)
    assert "sacrebleu.metrics" in heavy(modules)


def test_sacrebleu_is_whole_after_our_tokenizers(tmp_path: Path) -> None:
    """Loading only sacrebleu's tokenizers first leaves sacrebleu fully usable afterwards."""
    code = """
import bleu_core
ours = bleu_core.corpus_bleu(["The cat is on the mat."], [["The cat sat on the mat."]]).score
import sacrebleu
import sacrebleu.tokenizers.tokenizer_13a as t13a
from sacrebleu.metrics import BLEU
assert sacrebleu.tokenizers.tokenizer_13a is t13a
assert isinstance(sacrebleu.__version__, str)
theirs = sacrebleu.corpus_bleu(["The cat is on the mat."], [["The cat sat on the mat."]]).score
assert abs(ours - theirs) < 1e-9, (ours, theirs)
assert round(BLEU().corpus_score(["a b c d"], [["a b c d"]]).score, 9) == 100.0
"""
    assert "sacrebleu.metrics" in modules_after(code, tmp_path)


@pytest.mark.parametrize("first", ["import sacrebleu", "from sacrebleu import BLEU"])
def test_sacrebleu_imported_first_is_left_alone(first: str, tmp_path: Path) -> None:
    code = (
        f"{first}\nimport bleu_core\nassert bleu_core.corpus_bleu(['a b'], [['a b']]).score == 0.0"
    )
    assert "sacrebleu.metrics" in modules_after(code, tmp_path)
