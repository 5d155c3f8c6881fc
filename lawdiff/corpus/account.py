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

from lawdiff.i18n.said import joined
from lawdiff.model import Loc
from lawdiff.sources.base import Fragment
from lawdiff.sources.build import Draft, PageTree, page_strings
from lawdiff.sources.normalize import normalize_inline

_TOKEN = re.compile(r"\w+|[^\w\s]")

# The three kinds of character that decide the tokens, as :data:`_TOKEN`
# tells them apart: ``w`` a word character (``\w``: alphanumeric or ``_``),
# ``s`` white space (``\s``), ``p`` any other sign.  Latin-1 text is
# classified a byte at a time; a character beyond it is first replaced by a
# Latin-1 one of its kind (``a``, `` `` or ``!``).
_KIND_OF_BYTE = bytes(
    ord("w") if chr(i).isalnum() or i == 0x5F else ord("s") if chr(i).isspace() else ord("p") for i in range(256)
)
_WIDE = re.compile(r"[^\x00-\xff]+")
# How many leading words of a line are tried as its label (``ARTIKEL 45``
# is two) when a source line is matched to the tree's strings whole.
_LABEL_WORDS = 3


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


def count_tokens(text: str) -> int:
    """``len(tokens(text))``, without making the tokens.

    A token is a run of word characters or a single sign, so the count is
    the number of word runs plus the number of signs: counted on a copy of
    the text with each character replaced by its kind, by the C loops of
    ``bytes.translate`` and ``bytes.count`` (a page of 6,000 words in a
    fraction of a millisecond, where finding the tokens takes a millisecond).
    """
    if not unicodedata.is_normalized("NFC", text):
        text = normalize_inline(text)
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        data = _WIDE.sub(_latin1_kinds, text).encode("latin-1")
    kinds = data.translate(_KIND_OF_BYTE)
    return kinds.count(b"sw") + kinds.count(b"pw") + kinds.startswith(b"w") + kinds.count(b"p")


def _latin1_kinds(m: re.Match[str]) -> str:
    return "".join("a" if c.isalnum() or c == "_" else " " if c.isspace() else "!" for c in m.group())


def account(tree: PageTree) -> PageCheck:
    """Check that the tree built from a page accounts for all of its text.

    Each fragment first takes its words from its home: the clauses that start
    at its own place, or else at the nearest place before it (a paragraph
    read into the text of the section above it).  What is still missing is
    then taken from whatever is left anywhere in the page's tree.  The totals
    are the same in any order; this order decides where a lost word is
    reported: at the fragment that lost it, not at a later one that happens
    to use the same common word.

    Most pages lose nothing: the source lines found whole among the tree's
    strings, and one count of the other lines' words against the strings
    left, settle them (see :func:`_covered`); the attribution to places runs
    only for a page that did lose words.
    """
    texts = [f.text for f in tree.page.fragments]
    strings = page_strings(tree)
    # Joined by line breaks, which no token spans and the normalization keeps,
    # the texts give the same tokens as each text on its own.
    total = count_tokens("\n".join(texts))
    if _covered(texts, strings):
        return _check(tree, total, total, ())
    return _attribute(tree, strings)


def _covered(texts: list[str], strings: list[str]) -> bool:
    """Whether ``strings`` hold every token of ``texts`` (as many times as they occur there).

    A source line that is one of the strings (a paragraph), or one of them
    and another after a space (``1.`` and its text, ``ARTIKEL 45`` and its
    title), holds exactly their tokens, since no token spans white space:
    those strings are taken for it without making a token.  Only the lines
    left are counted, token by token, against the strings left.  The answer
    is the same as counting everything: what the lines found whole take
    from both sides is equal, and taking equal counts from both sides of
    "at most" keeps it true or false.
    """
    pool = Counter(strings)
    del pool[""]  # (the empty labels, titles and texts: no tokens, and many)
    # (get, not pool[...]: a Counter's missing key is a call to Python code.)
    left = pool.get
    rest: list[str] = []
    for text in texts:
        n = left(text, 0)
        if n > 0:
            pool[text] = n - 1
        elif not _take_split(text, pool):
            rest.append(text)
    if not rest:
        return True
    need = Counter(tokens("\n".join(rest)))
    # The strings left, each as often as it is left (``elements``: in C, past the many taken to none).
    have = Counter(tokens("\n".join(pool.elements())))
    return all(have[t] >= n for t, n in need.items())


def _take_split(text: str, pool: Counter[str]) -> bool:
    """Take ``label`` and ``rest`` from the pool for ``text`` = ``label rest``, trying the first few spaces."""
    left = pool.get
    cut = -1
    for _ in range(_LABEL_WORDS):
        cut = text.find(" ", cut + 1)
        if cut < 0:
            return False
        head, tail = text[:cut], text[cut + 1 :]
        n = left(head, 0)
        if n > 0 and left(tail, 0) > (head == tail):
            pool[head] = n - 1
            pool[tail] -= 1
            return True
    return False


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
    """Every draft under ``drafts`` in document order: a draft, its footnotes', then its children's."""
    out: list[Draft] = []
    stack = list(reversed(drafts))
    while stack:
        d = stack.pop()
        out.append(d)
        stack += reversed(d.children)
        stack += reversed(d.footnotes)
    return out


def _draft_notes(drafts: list[Draft]) -> list[tuple[Loc, str]]:
    """The notes of every draft under ``drafts``, in :func:`_drafts`' order, walked without listing the drafts
    (every page is walked so, and few of its drafts have a note: most have no children and no footnotes)."""
    out: list[tuple[Loc, str]] = []
    stack = drafts[::-1]
    pop, extend = stack.pop, stack.extend
    while stack:
        d = pop()
        if d.notes:
            out.extend([(d.source, joined((d.address, n), ": ")) for n in d.notes])
        if d.children:
            extend(d.children[::-1])
        if d.footnotes:
            extend(d.footnotes[::-1])
    return out
