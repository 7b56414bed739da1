"""The Metrics page follows the sidebar's tokenizer (issue 39): "Same data, many BLEUs" scores sacrebleu and
Hugging Face with it, the parameter explorer starts at it, and a space-based tokenizer on a Chinese, Japanese
or Korean target is warned about on the page (the sidebar) and by the command line.

The invented WMT24-shaped release ``tests/study/data/wmt24-mini`` (en-ja) for the page; WMT24 en-ja and en-hi
from ``shared/data`` (research use only, read in place, skipped when absent) for page = command."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from app_runs import start_app

from bleu_core.cli import main
from bleu_core.metrics.variants import variants_for
from bleu_core.study import load_study
from bleu_core.tokenize.tokenizers import tokenizer_for_language, tokenizer_warning
from ui.app import state as K
from ui.metrics.charts import many_bleus_frame

MINI = Path(__file__).resolve().parents[1] / "study" / "data" / "wmt24-mini"
WMT24 = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt24-general-esa"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_metrics_page_follows_the_sidebar_tokenizer_and_warns() -> None:
    study = load_study(MINI, pair="en-ja").study
    at = start_app("metrics", study, key="test:wmt24-mini-en-ja-metrics", first_run=False)
    table = next(t for t in at.table if "implementation" in t.value.columns).value
    assert "sacrebleu (tok ja-mecab)" in list(table["implementation"])
    assert not any("as WMT reports it" in text for text in table["what differs"])
    assert at.multiselect(key=f"{K.MET_EXPLORER_CHOICES}_tok_ja-mecab").value == ["ja-mecab"]
    explorer = next(d.value for d in at.dataframe if "Pearson (segments)" in d.value.columns)
    assert all("tok:ja-mecab" in sig for sig in explorer["signature"])
    assert not [w for w in at.sidebar.warning if "unsuitable" in w.value]
    # the user's own 13a on the Japanese study: one run (AppTest keeps the sidebar of a first run only)
    chosen = {K.OPT_TOKENIZE_LANGUAGE: "ja", K.OPT_TOKENIZE: "13a"}
    at = start_app("metrics", study, key="test:wmt24-mini-en-ja-13a", first_run=False, **chosen)
    [warning] = [w.value for w in at.sidebar.warning if "unsuitable" in w.value]
    assert warning == tokenizer_warning("13a", "ja")
    table = next(t for t in at.table if "implementation" in t.value.columns).value
    assert "sacrebleu" in list(table["implementation"])  # 13a asked for: sacrebleu's own defaults
    assert at.multiselect(key=f"{K.MET_EXPLORER_CHOICES}_tok_13a").value == ["13a"]


def test_the_command_line_warns_of_a_space_tokenizer_on_japanese() -> None:
    where = [
        str(MINI),
        "--pair",
        "en-ja",
        "--n-resamples",
        "10",
        "--statistics",
        "none",
        "--include-human",
    ]
    code, _, err = run("meta", *where, "--tokenize", "13a")
    assert code == 0 and tokenizer_warning("13a", "ja") in err
    code, _, err = run("meta", *where)  # the target language's own tokenizer: no warning
    assert code == 0 and "unsuitable" not in err
    with pytest.raises(ValueError, match="unknown tokenizer|tokenize"):
        variants_for("moses")


@pytest.mark.parametrize("pair", ["en-ja", "en-hi"])
def test_many_bleus_sacrebleu_is_the_command_lines_bleu(pair: str) -> None:
    """The page's sacrebleu row (sidebar tokenizer = the target language's) is ``study``'s BLEU."""
    if not WMT24.is_dir():
        pytest.skip(f"WMT24 release not found at {WMT24} (research use only, not bundled)")
    study = load_study(WMT24, pair=pair).study
    tokenize = tokenizer_for_language(study.target_lang)
    names = tuple(list(study.systems)[:4])
    frame = many_bleus_frame(study, names, tokenize=tokenize)
    page = frame[frame["variant"] == variants_for(tokenize)[0].label].set_index("system")["BLEU"]
    code, out, _ = run("study", str(WMT24), "--pair", pair, "--format", "json")
    assert code == 0
    cli = {s["name"]: s["bleu"] for s in json.loads(out)["systems"]}
    for name in names:
        assert page[name] == pytest.approx(cli[name], abs=1e-9), name


def test_the_explorer_measures_from_the_given_default() -> None:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.metrics.explorer import ExplorerGrid, explore

    hyps, refs = ["猫が座った", "犬が走る"], [["猫が座っていた", "犬が走った"]]
    default = BleuOptions(tokenize="char")
    grid = ExplorerGrid(tokenize=("char", "13a"))
    result = explore(hyps, refs, grid, default=default)
    assert "|tok:char|" in result.default_signature
    char, space = result.rows
    assert char.difference == 0.0 and char.changed == ()  # the default itself
    assert space.changed == ("tokenize: char → 13a",) and space.score != char.score
