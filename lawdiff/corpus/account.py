"""The lossless accounting behind ``lawdiff check``.

For each page, every word and sign of its source text (after the
normalization of :mod:`lawdiff.sources.normalize`, and apart from the
furniture a reader declares, such as list bullets and the ``---`` rule) must
be found among the strings of the tree built from it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from lawdiff.model import Loc
from lawdiff.sources.base import Fragment
from lawdiff.sources.build import Draft, PageTree, page_strings
from lawdiff.sources.normalize import normalize_inline

_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True, slots=True)
class Unplaced:
    """Source text that the tree does not account for."""

    loc: Loc
    text: str


@dataclass(frozen=True, slots=True)
class PageCheck:
    """How much of one page's source text its tree accounts for."""

    file: str
    page: str
    edition: str
    format: str
    tokens: int
    placed: int
    unplaced: tuple[Unplaced, ...]
    furniture: int
    notes: tuple[tuple[Loc, str], ...]

    @property
    def ratio(self) -> float:
        return 1.0 if self.tokens == 0 else self.placed / self.tokens


def tokens(text: str) -> list[str]:
    """Words and single signs: the units of the lossless check.

    Only the NFC composition of the normalization can change a token (white
    space separates tokens whatever its kind), so a text already composed,
    as every line a reader has normalized is, is not normalized again.
    """
    return _TOKEN.findall(text if unicodedata.is_normalized("NFC", text) else normalize_inline(text))


def account(tree: PageTree) -> PageCheck:
    """Check that the tree built from a page accounts for all of its text.

    Each fragment first takes its words from its home: the clauses that start
    at its own place, or else at the nearest place before it (a paragraph
    read into the text of the section above it).  What is still missing is
    then taken from whatever is left anywhere in the page's tree.  The totals
    are the same in any order; this order decides where a lost word is
    reported: at the fragment that lost it, not at a later one that happens
    to use the same common word.

    Most pages lose nothing: one count of the page's words against the
    tree's settles them, and the attribution to places runs only for a page
    that did lose words.
    """
    # Joined by line breaks, which no token spans and the normalization keeps,
    # the texts give the same tokens as each text on its own.
    need = Counter(tokens("\n".join(f.text for f in tree.page.fragments)))
    strings = page_strings(tree)
    if not need - Counter(tokens("\n".join(strings))):
        return _check(tree, sum(need.values()), sum(need.values()), ())
    return _attribute(tree, strings)


def _attribute(tree: PageTree, strings: list[str]) -> PageCheck:
    """The slow path of :func:`account`: where each lost word was lost."""
    available = Counter(t for s in strings for t in tokens(s))
    local: dict[Loc, Counter[str]] = {}
    for draft in _drafts(tree.roots):
        own = (draft.label, draft.title, draft.text, draft.extra, draft.marker)
        local.setdefault(draft.source, Counter()).update(t for s in own for t in tokens(s))
    places = sorted(((pos, loc) for loc in local if (pos := _position(loc)) is not None), key=lambda x: x[0])
    keys = [pos for pos, _ in places]
    pending: list[tuple[Fragment, list[str]]] = []
    for frag in tree.page.fragments:
        pool = local.get(frag.loc)
        pos = _position(frag.loc)
        if pool is None and pos is not None and (i := bisect_right(keys, pos)) > 0:
            pool = local[places[i - 1][1]]
        left: list[str] = []
        for tok in tokens(frag.text):
            if pool is not None and pool[tok] > 0 and available[tok] > 0:
                pool[tok] -= 1
                available[tok] -= 1
            else:
                left.append(tok)
        pending.append((frag, left))
    total = sum(len(tokens(f.text)) for f in tree.page.fragments)
    placed = total
    unplaced: list[Unplaced] = []
    for frag, left in pending:
        missing: list[str] = []
        for tok in left:
            if available[tok] > 0:
                available[tok] -= 1
            else:
                missing.append(tok)
        if missing:
            placed -= len(missing)
            if unplaced and unplaced[-1].loc == frag.loc:
                # The text nodes of one payload element are reported as one place.
                unplaced[-1] = Unplaced(frag.loc, f"{unplaced[-1].text} {' '.join(missing)}")
            else:
                unplaced.append(Unplaced(frag.loc, " ".join(missing)))
    return _check(tree, total, placed, tuple(unplaced))


def _check(tree: PageTree, total: int, placed: int, unplaced: tuple[Unplaced, ...]) -> PageCheck:
    notes = list(tree.notes)
    for clause_notes in _draft_notes(tree.roots):
        notes.append(clause_notes)
    return PageCheck(
        file=tree.page.file,
        page=tree.page.name,
        edition=tree.page.edition,
        format=tree.page.format,
        tokens=total,
        placed=placed,
        unplaced=unplaced,
        furniture=len(tree.page.furniture),
        notes=tuple(notes),
    )


def _position(loc: Loc) -> int | None:
    """A place's order in its file: the line, or the payload element (devalue numbers them in document order)."""
    if loc.line:
        return loc.line
    m = re.fullmatch(r"\$\[(\d+)\]", loc.path)
    return int(m.group(1)) if m else None


def _drafts(drafts: list[Draft]) -> list[Draft]:
    out: list[Draft] = []
    for d in drafts:
        out.append(d)
        out.extend(_drafts(d.footnotes))
        out.extend(_drafts(d.children))
    return out


def _draft_notes(drafts: list[Draft]) -> list[tuple[Loc, str]]:
    out: list[tuple[Loc, str]] = []
    for d in drafts:
        for n in d.notes:
            out.append((d.source, f"{d.address}: {n}"))
        out.extend(_draft_notes(d.footnotes))
        out.extend(_draft_notes(d.children))
    return out
