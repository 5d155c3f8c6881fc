"""lawdiff.jsontext writes the standard library's indented JSON, character for character."""

from __future__ import annotations

import enum
import json
import re
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.jsontext import dumps

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)


def stdlib(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_same_text_as_the_standard_library(value: Any) -> None:
    assert dumps(value) == stdlib(value)


class Kind(enum.StrEnum):
    ADDED = "added"


class Level(enum.IntEnum):
    ONE = 1


def test_what_it_leaves_to_the_standard_library_is_the_same_text_too() -> None:
    for value in (
        {"kind": Kind.ADDED},
        [Level.ONE, True, 1.5],
        OrderedDict(a=[1, {}], b=[]),
        {1: "a key that is a number", None: "and none"},
        {"deep": [[["\u2028 <script>", "\ud800"]]]},
        [float("nan"), float("inf"), -float("inf"), -0.0, 1e300],
        "a string alone",
        [],
        {},
    ):
        assert dumps(value) == stdlib(value), value


def test_a_value_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    for value in ({"set": {1, 2}}, [object()]):
        with pytest.raises(TypeError) as refused:
            stdlib(value)
        with pytest.raises(TypeError, match=re.escape(str(refused.value))):
            dumps(value)
