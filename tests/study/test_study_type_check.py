"""A loader's LoadResult given where a Study is wanted (``save_study(load_study(path))``) is a message that says
what to pass, not an AttributeError from deep inside."""

from __future__ import annotations

import pytest

from bleu_core.errors import WrongTypeError
from bleu_core.study import study_from_texts
from bleu_core.study.storage import study_to_dict
from bleu_core.study.validation import validate_study


def test_a_load_result_where_a_study_is_wanted_says_to_pass_its_study():
    result = study_from_texts(systems={"A": ["a b"]}, references=[["a b"]])
    with pytest.raises(WrongTypeError, match=r"got the LoadResult of a loader; pass its \.study"):
        study_to_dict(result)
    study_to_dict(result.study)  # the study itself is fine


def test_something_else_where_a_study_is_wanted_names_its_type():
    with pytest.raises(WrongTypeError, match=r"^study: the study must be a Study, got dict"):
        validate_study({"name": "x"})
