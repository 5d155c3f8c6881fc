"""The differential check's parts, on small cases: the words of MediaWiki's rendering, and where two word
lists differ. The check itself runs against a real wiki in ``tests/test_fetch_wiki.py``."""

from __future__ import annotations

import io
import sys

import pytest

from lawdiff.cli.fetch import progress_line
from lawdiff.fetch.differential import compare_words, rendered_words, words

RENDERED = (
    '<div class="mw-parser-output"><p><b>A. Spelen</b><br />'
    'met de beeldzijde<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> naar boven'
    "</p><ol><li>Een kaart</li><li>De leider<dl><dd>(a) met</dd></dl></li></ol>"
    '<ol start="4"><li>Vier</li></ol><!-- NewPP limit report -->'
    '<div class="mw-references-wrap"><ol class="references"><li id="cite_note-1">'
    '<span class="mw-cite-backlink"><a href="#cite_ref-1">↑</a></span> <span class="reference-text">Een noot</span>'
    "</li></ol></div></div>"
)


def test_the_words_of_a_rendering() -> None:
    assert rendered_words(RENDERED) == words(
        "A. Spelen met de beeldzijde naar boven 1. Een kaart 2. De leider (a) met 4. Vier Een noot"
    )
    assert rendered_words("") == []
    assert words("boven¹⁾ ﬁjn") == ["boven1", "fijn"]


@pytest.mark.parametrize(
    ("ours", "theirs", "found"),
    [
        ("a b c", "a b c", ()),
        ("a b c", "a Bestand Foto png b c", ()),  # the wiki shows page chrome lawdiff set aside
        ("a b c", "a b x c", (("a b [] c", "a b [x] c"),)),
        ("a b c", "a c", (("a [b] c", "a [] c"),)),
    ],
)
def test_where_two_readings_differ(ours: str, theirs: str, found: tuple[tuple[str, str], ...]) -> None:
    assert compare_words(ours.split(), theirs.split(), {"Bestand", "Foto", "png"}) == found


def test_the_progress_line_is_drawn_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, drawn in ((Terminal(), "\rlisting\rbatch 1\r2      \r \r"), (io.StringIO(), "")):
        monkeypatch.setattr(sys, "stderr", stream)
        with progress_line() as say:
            say("listing")
            say("batch 1")
            say("2")
        assert stream.getvalue() == drawn
