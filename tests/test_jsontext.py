"""lawdiff.jsontext writes the standard library's indented JSON, character for character."""

from __future__ import annotations

import enum
import json
import re
from collections import OrderedDict
from json.encoder import encode_basestring
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawdiff.jsontext import LONG_STRING, StrPairs, dumps, needs_escape, pieces, string, string_utf8

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
    assert "".join(pieces(value)) == stdlib(value)


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


# Long strings (at least LONG_STRING characters) of each kind the encoder may escape or leave: the quote,
# the backslash, controls, DEL, non-ASCII letters, a sign beyond the BMP and a lone surrogate.
long_texts = st.lists(
    st.sampled_from(["word ", '"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\ud800", "\u2028"]),
    min_size=1,
    max_size=6,
).map(lambda kinds: "".join(kinds) * (LONG_STRING // len("".join(kinds)) + 1))


@settings(max_examples=200, deadline=None)
@given(long_texts)
def test_a_long_string_is_written_as_the_c_encoder_writes_it(text: str) -> None:
    assert len(text) >= LONG_STRING
    assert string(text) == encode_basestring(text)
    assert needs_escape(text) == (encode_basestring(text) != '"' + text + '"')
    assert dumps({"text": text, "list": [text]}) == stdlib({"text": text, "list": [text]})
    # Its UTF-8, in pieces, the text encoded once; the same where needs_escape has answered already.
    for _ in range(2):
        assert b"".join(string_utf8(text, "surrogatepass")) == encode_basestring(text).encode("utf-8", "surrogatepass")
    if "\ud800" not in text:
        assert b"".join(string_utf8(text)) == encode_basestring(text).encode("utf-8")
        fresh = text[:-1] + text[-1]  # (another string: no answer kept for it)
        assert b"".join(string_utf8(fresh)) == encode_basestring(text).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["equal", "insert", "delete"]), st.text() | long_texts), max_size=6))
def test_pieces_are_written_as_the_standard_library_writes_them(pieces: list[tuple[str, str]]) -> None:
    # Pieces with nothing to escape among them are written as they stand, quotes and all; any other as encoded.
    assert dumps({"diff": StrPairs(pieces)}) == stdlib({"diff": [list(p) for p in pieces]})


def test_a_long_text_and_a_long_list_of_pairs_are_written_in_pieces_never_joined_whole() -> None:
    text = "word " * 100_000
    pairs = [p for i in range(5000) for p in (("equal", f"w{i} "), ("insert", "new "))]
    doc = {"old_texts": [text], "diff": StrPairs(pairs), "n": 1}
    made = pieces(doc)
    assert "".join(made) == stdlib({"old_texts": [text], "diff": [list(p) for p in pairs], "n": 1})
    assert any(p is text for p in made)  # the text itself, not a copy of it
    assert max(map(len, made)) == len(text)  # the pairs in pieces shorter than the text
    assert len(made) > 4


def test_one_piece_to_escape_among_thousands_escapes_them_all() -> None:
    # The pairs' texts are looked at some thousand at a time: a quote in the last is found all the same.
    for last in ('say "so"', "back\\slash", "line\n", "plain"):
        pairs = [("equal", "word ")] * 10_000 + [("insert", last)]
        assert dumps({"diff": StrPairs(pairs)}) == stdlib({"diff": [list(p) for p in pairs]})
