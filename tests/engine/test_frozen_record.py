""":class:`~bleu_core.engine.options.BleuOptions` and :class:`~bleu_core.engine.bleu.BleuScore` are written by hand
(:class:`~bleu_core.engine.options.FrozenRecord`) so that ``bleu-study score`` does not import :mod:`dataclasses`:
they must behave as the frozen dataclasses they replace. The reference below is such a dataclass with the same
fields and defaults; the app keys its caches on ``repr(options)``, so the repr must be the dataclass's, character
for character.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from bleu_core import BleuOptionError, corpus_bleu
from bleu_core.engine.bleu import BleuScore
from bleu_core.engine.options import BleuOptions


@dataclasses.dataclass(frozen=True)
class BleuOptions_:  # noqa: N801 - the dataclass BleuOptions was (its repr is compared without the "_")
    max_order: int = 4
    weights: tuple[float, ...] | None = None
    ref_length: str = "closest"
    smooth: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False
    tokenize: str = "13a"
    lowercase: bool = False


KWARGS = [
    {},
    {"max_order": 2, "weights": (0.25, 0.75)},
    {"smooth": "floor", "smooth_value": 0},
    {"smooth": "add-k", "smooth_value": 2.5, "effective_order": True},
    {"tokenize": "intl", "lowercase": True, "ref_length": "shortest"},
]


@pytest.mark.parametrize("kwargs", KWARGS, ids=str)
def test_options_read_as_the_dataclass(kwargs: dict) -> None:
    ours, reference = BleuOptions(**kwargs), BleuOptions_(**kwargs)
    assert repr(ours) == repr(reference).replace("BleuOptions_(", "BleuOptions(", 1)
    assert ours.to_dict() == dataclasses.asdict(reference)
    assert hash(ours) == hash(reference)
    assert ours == BleuOptions(**kwargs) and ours != reference  # another class is never equal


def test_positional_arguments_in_field_order() -> None:
    assert BleuOptions(3, None, "average") == BleuOptions(max_order=3, ref_length="average")
    assert BleuOptions(3) != BleuOptions(4)


def test_options_are_immutable() -> None:
    options = BleuOptions()
    with pytest.raises(
        AttributeError, match="BleuOptions is immutable: cannot assign to field 'smooth'"
    ):
        options.smooth = "none"  # type: ignore[misc]
    with pytest.raises(
        AttributeError, match="BleuOptions is immutable: cannot delete field 'smooth'"
    ):
        del options.smooth
    with pytest.raises(AttributeError, match="cannot assign to field 'colour'"):
        options.colour = "red"  # type: ignore[attr-defined]


def test_with_changes_and_validates_again() -> None:
    options = BleuOptions(smooth="floor", smooth_value=0.2)
    assert options.with_(smooth_value=0) == BleuOptions(smooth="floor", smooth_value=0)
    assert options == BleuOptions(smooth="floor", smooth_value=0.2)  # unchanged
    with pytest.raises(BleuOptionError, match="smoothing 'exp' takes no value, got 0.2"):
        options.with_(smooth="exp")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        options.with_(colour="red")


def test_pickle_and_copy_give_equal_options() -> None:
    options = BleuOptions(weights=(0.1, 0.2, 0.3, 0.4), smooth="chen-cherry-4", smooth_value=3.0)
    for twin in (pickle.loads(pickle.dumps(options)), copy.copy(options), copy.deepcopy(options)):
        assert twin == options and hash(twin) == hash(options) and repr(twin) == repr(options)


def test_scores_compare_hash_pickle_and_stay_frozen() -> None:
    score = corpus_bleu(["the cat sat on the mat"], [["the cat is on the mat"]])
    again = corpus_bleu(["the cat sat on the mat"], [["the cat is on the mat"]])
    assert score == again and hash(score) == hash(again)
    assert score != corpus_bleu(
        ["the cat sat on the mat"], [["the cat is on the mat"]], smooth="none"
    )
    assert pickle.loads(pickle.dumps(score)) == score
    with pytest.raises(
        AttributeError, match="BleuScore is immutable: cannot assign to field 'score'"
    ):
        score.score = 100.0  # type: ignore[misc]
    fields = {name: getattr(score, name) for name in BleuScore._fields}
    assert BleuScore(**fields) == score
    assert list(fields) == [*score.to_dict(), "options"]  # to_dict: every field but the options
