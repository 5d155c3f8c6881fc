"""lawdiff.marks: the one rule of which characters are hidden and how each output shows them."""

from __future__ import annotations

import pytest

from lawdiff import marks


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain tekst", "plain tekst"),
        ("a\u202eb", "a\\u202eb"),
        ("\x1b[31mred", "\\x1b[31mred"),
        ("tab\tand\nline", "tab\tand\nline"),
        ("\u2066iso\u2069", "\\u2066iso\\u2069"),
        ("del\x7f", "del\\x7f"),
    ],
)
def test_escape_shows_hidden_characters(text: str, shown: str) -> None:
    assert marks.escape(text) == shown


def test_escape_returns_plain_text_itself() -> None:
    text = "Artikel 45 — gespeelde kaart"
    assert marks.escape(text) is text


def test_escape_for_an_encoding_escapes_what_it_cannot_hold() -> None:
    assert marks.escape("a — b\u202e", "latin-1") == "a \\u2014 b\\u202e"
    assert marks.escape("café", "latin-1") == "café"
    assert marks.escape("\U0001f600", "ascii") == "\\U0001f600"


def test_runs_cut_hidden_characters_out_one_each() -> None:
    assert list(marks.runs("ab\u202e\u202ecd")) == [("ab", False), ("\u202e", True), ("\u202e", True), ("cd", False)]
    assert "".join(r for r, _ in marks.runs("x\x00y\u2069")) == "x\x00y\u2069"


def test_labels_name_the_character() -> None:
    assert marks.label("\u202e") == "U+202E RLO"
    assert marks.label("\x07") == "U+0007"
    assert marks.has_hidden("a\u200fb") and not marks.has_hidden("a b")
