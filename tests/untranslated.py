"""What a surface says in English when it should speak Dutch: the helpers of the completeness tests.

A surface (the report's pages, the served app, the redline, the minutes) is rendered in Dutch, and
each message of the catalog that its code marks (its ``sources``, globs under the repository) and
that comes out in English fails the test: its English words in the text, outside the law text
(``lang="nl"``).  The messages whose Dutch is the English word itself are a reviewed list per
surface.  Used by ``tests/test_i18n_serve.py`` and ``tests/test_i18n_report.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.extract import extract_from_file
from lxml import html as lxml_html

from lawdiff import i18n

ROOT = Path(__file__).resolve().parent.parent
_FIELD = re.compile(r"\{[^{}]*\}")
_EDGES = " \t\n()[]:;,.…→←–—-\"'“”„!?/·"


def catalog(sources: Iterable[str]) -> dict[str, str]:
    """Every message the code of ``sources`` marks (singular and plural), with its Dutch."""
    nl = i18n.translations("nl")
    out: dict[str, str] = {}
    for pattern in sources:
        for path in sorted(ROOT.glob(pattern)):
            for _line, message, _comments, context in extract_from_file("python", str(path)):
                if isinstance(message, tuple):
                    singular, plural = message[0], message[1]
                    out[singular] = nl.ngettext(singular, plural, 1)
                    out[plural] = nl.ngettext(singular, plural, 2)
                elif context:
                    out[message] = nl.pgettext(context, message)
                else:
                    out[message] = nl.gettext(message)
    return out


def english(msgid: str, dutch: str) -> list[re.Pattern[str]]:
    """The pieces of an English message that show it was left untranslated: its text between fields,
    each of two words or more, or of one word of six letters or more (or the whole message when it is
    one word), and not kept in its Dutch; each found where it stands as words of its own."""
    pieces = [p.strip(_EDGES) for p in _FIELD.split(msgid)]
    whole = len(pieces) == 1
    found = []
    for piece in pieces:
        words = piece.split()
        if not words or piece in dutch:
            continue
        if len(words) >= 2 or len(piece) >= 6 or (whole and len(piece) >= 3):
            # A word joined to another by a hyphen is another word ("text" is not in "wiki-text").
            found.append(re.compile(r"(?<![\w-])" + re.escape(piece) + r"(?![\w-])"))
    return found


def untranslated(sources: Iterable[str], same_in_dutch: set[str]) -> dict[str, list[re.Pattern[str]]]:
    """Each message of ``sources`` with the English pieces that must not be seen in Dutch; the messages
    whose Dutch is their English must be exactly ``same_in_dutch`` (reviewed)."""
    messages = catalog(sources)
    same = {m for m, d in messages.items() if m == d}
    assert same == same_in_dutch, "a message left in English, or a same word to review into the list"
    return {m: english(m, d) for m, d in messages.items() if m not in same_in_dutch}


def left_in_english(texts: Iterable[str], patterns: dict[str, list[re.Pattern[str]]]) -> list[str]:
    """Each message found in English, with where: ``'Article {number}': '... Article 45 ...'``."""
    joined = "\n".join(texts)
    found = set()
    for m, pieces in patterns.items():
        for p in pieces:
            hit = p.search(joined)
            if hit:
                found.add(f"{m!r}: {joined[max(0, hit.start() - 40) : hit.end() + 40]!r}")
    return sorted(found)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def page_texts(page: str, parts: str = "//body") -> list[str]:
    """What a reader of a page in Dutch reads outside the law text: its title, the text of ``parts`` (an
    XPath), their labels, titles and placeholders, and what its scripts say (each ``data-text``)."""
    tree = lxml_html.fromstring(page)
    assert tree.get("lang") == "nl"
    # The law text, and a script's own code (an inline script's English words are replaced by data-text's).
    for law in tree.xpath("//body//*[@lang='nl'] | //script | //style"):
        law.drop_tree()
    out = [tree.findtext(".//title") or ""] if parts == "//body" else []
    for part in tree.xpath(parts):
        out.append(part.text_content())
        out += [v for a in ("placeholder", "aria-label", "title") for v in part.xpath(f".//@{a}")]
    for text in tree.xpath("//@data-text"):
        out += list(_strings(json.loads(text)))
    return out
