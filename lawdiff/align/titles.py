"""Aligning headings, after the text: a heading goes with its text."""

from __future__ import annotations

import functools
from collections import defaultdict

from lawdiff.align.links import COMMITTEE, Aspect, Corrections, Link, Method, set_by_hand
from lawdiff.align.scoring import SAME_ADDRESS
from lawdiff.align.thresholds import Thresholds
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said, joined
from lawdiff.model import Clause, Edition, Kind, article_of, walked_runs

# A proposal: (score, old heading's index, new heading's index, reason in words).
_Proposal = tuple[float, int, int, str]


def align_titles(
    old: Edition, new: Edition, text_links: list[Link], t: Thresholds, corrections: Corrections | None = None
) -> list[Link]:
    a_titled, a_below = titled_below(old)
    dest, src = _text_flow(text_links)
    heads = _NewHeadings(*titled_below(new), src)
    fixes = corrections or Corrections()
    forbidden = {(f.old, f.new) for f in fixes.forbids}
    pinned = _pinned(fixes, a_titled, heads.index)
    kept = _Kept(a_titled, heads, pinned, forbidden, t, dest, src)
    proposals: list[_Proposal] = []
    searched = False
    for x, a in enumerate(a_titled):
        a_sub = a_below[x]
        found = kept.proposal(x, a, a_sub)
        if found is not None:
            proposals.append(found)
            continue
        searched = True
        proposals.extend(_proposals(x, a, _went(a_sub, dest), a_sub, heads, dest, forbidden, t))
    if searched:
        # (Kept headings' proposals alone each pair two headings that no other proposal names, none pinned:
        # all of them are taken, in whatever order.)
        proposals.sort(key=lambda p: (-round(p[0], 9), abs(p[1] - p[2]), p[1] + p[2]))
    used_a, used_b = _assign(proposals, pinned)
    return _title_links(a_titled, heads.titled, used_a, used_b, pinned)


def _went(addresses: set[str], dest: dict[str, set[str]]) -> set[str]:
    """Where the text at ``addresses`` went."""
    out: set[str] = set()
    for address in addresses:
        went = dest.get(address)
        if went:
            out |= went
    return out


def _text_flow(text_links: list[Link]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Where each old address's text went, and where each new address's text came from."""
    dest: dict[str, set[str]] = {}
    src: dict[str, set[str]] = {}
    for link in text_links:
        olds, news = link.old, link.new
        if len(olds) == 1 and len(news) == 1:  # (most links: one clause to one, a set of one made at once)
            o, n = olds[0], news[0]
            went, came = dest.get(o), src.get(n)
            if went is None:
                dest[o] = {n}
            else:
                went.add(n)
            if came is None:
                src[n] = {o}
            else:
                came.add(o)
            continue
        for o in olds:
            dest.setdefault(o, set()).update(news)
        for n in news:
            src.setdefault(n, set()).update(olds)
    return dest, src


def titled_below(edition: Edition) -> tuple[list[Clause], list[set[str]]]:
    """The edition's titled clauses in document order (:func:`~lawdiff.align.space.titled`), each with the
    addresses of the clauses with own text in its walk (itself, its footnotes, what is under it).

    A clause's walk is a run of the edition's walk (:func:`~lawdiff.model.walked_runs`): each
    heading's run is read off it, where walking each heading's subtree again took a fifth of the alignment
    of two editions that kept their texts."""
    clauses, ends = walked_runs(edition)
    heads: list[Clause] = []
    below: list[set[str]] = []
    for i, c in enumerate(clauses):
        if c.title:
            heads.append(c)
            run = c.walk() if ends[i] < 0 else clauses[i : ends[i]]
            below.append({d.address for d in run if d.text})
    return heads, below


class _NewHeadings:
    """The new edition's headings, indexed for the search of an old heading's counterparts.

    What only the search needs (which headings hold an address, the titles of each level) is made when
    the first heading is searched for, and where the text below a heading came from when first asked:
    two editions that kept their headings search for none."""

    def __init__(self, b_titled: list[Clause], below: list[set[str]], src: dict[str, set[str]]) -> None:
        self.titled = b_titled
        self.subtree: dict[str, set[str]] = {c.address: sub for c, sub in zip(b_titled, below, strict=True)}
        self.index = {b.address: y for y, b in enumerate(b_titled)}
        self._src = src
        self._sources: dict[str, set[str]] = {}
        self.holders: dict[str, list[int]] = defaultdict(list)
        self.choices: dict[int, dict[int, str]] = {}
        self.by_article: dict[str, dict[int, str]] = defaultdict(dict)
        self._indexed = False

    def source(self, address: str) -> set[str]:
        """Where the text below the heading at ``address`` came from."""
        found = self._sources.get(address)
        if found is None:
            src = self._src
            found = self._sources[address] = {o for addr in self.subtree[address] for o in src.get(addr, ())}
        return found

    def _index_for_search(self) -> None:
        if self._indexed:
            return
        self._indexed = True
        b_titled = self.titled
        for y, b in enumerate(b_titled):
            for addr in self.subtree[b.address]:
                self.holders[addr].append(y)
        by_level: dict[int, list[int]] = defaultdict(list)
        for y, b in enumerate(b_titled):
            by_level[_level(b.kind)].append(y)
        # The titles of each level, made once (a search per heading goes through them in C); the
        # headings inside articles also by article, since those are searched only where their
        # article's text went (a search through every heading would grow with the square of the
        # editions).
        self.choices = {level: {y: b_titled[y].title for y in ys} for level, ys in by_level.items()}
        for y in by_level.get(2, []):
            self.by_article[article_of(b_titled[y].address)][y] = b_titled[y].title

    def candidates(self, a: Clause, a_dest: set[str], t: Thresholds) -> set[int]:
        """The same address, the headings above where the text of ``a`` went,
        and headings with a similar title (rapidfuzz, in C)."""
        # rapidfuzz is imported where it is used: reading a store or --help need not load it.
        from rapidfuzz import fuzz, process

        self._index_for_search()
        cands: set[int] = set()
        if a.address in self.index:
            cands.add(self.index[a.address])
        for addr in a_dest:
            cands.update(self.holders.get(addr, ()))
        same_place = self.index.get(a.address)
        if same_place is None or self.titled[same_place].title != a.title:
            # A heading kept as it was at its address needs no search by title
            # (the search costs a comparison with every heading of its level).
            level = _level(a.kind)
            if level == 2:
                arts = {article_of(a.address)} | {article_of(d) for d in a_dest}
                pool = {y: title for art in sorted(arts) for y, title in self.by_article.get(art, {}).items()}
            else:
                pool = self.choices.get(level, {})
            for _, _, y in process.extract(
                a.title,
                pool,
                scorer=fuzz.ratio,
                score_cutoff=t.title_min * 100,
                limit=5,
            ):
                cands.add(int(y))
        return cands


def _pinned(fixes: Corrections, a_titled: list[Clause], b_index: dict[str, int]) -> dict[int, tuple[int, str]]:
    """The committee's one-to-one pins between headings: old index -> (new index, who)."""
    a_index = {a.address: x for x, a in enumerate(a_titled)}
    pinned: dict[int, tuple[int, str]] = {}
    for pin in fixes.pins:
        if len(pin.old) == 1 and len(pin.new) == 1 and pin.old[0] in a_index and pin.new[0] in b_index:
            pinned[a_index[pin.old[0]]] = (b_index[pin.new[0]], pin.by or COMMITTEE)
    return pinned


class _Kept:
    """The proposal of a heading that kept its place, its title and the text below it, found without a
    search: it outscores every other proposal of either heading, so the search would find it first and
    the others could not be taken (two editions that kept their headings need no title compared).

    Such a heading (old ``x``) has the same address as one new heading (``y``), the same title (title
    similarity 1), of the same level, and the text alignment joins all of the text below the one to all
    of that below the other (shared text 1).  Its score, ``0.5 + 1 + address_bonus``, is then above any
    other proposal's of ``x`` or ``y``: another pair of either lacks the same address, and scores at most
    ``0.5 + 1``; another heading of the same address on the same side (an edition that gives one twice)
    could tie, so an address given twice takes the search.  Pins, forbidden pairs, and an address bonus
    that is not positive (a threshold set so) take the search too.
    """

    def __init__(
        self,
        a_titled: list[Clause],
        heads: _NewHeadings,
        pinned: dict[int, tuple[int, str]],
        forbidden: set[tuple[str, str]],
        t: Thresholds,
        dest: dict[str, set[str]],
        src: dict[str, set[str]],
    ) -> None:
        self.heads = heads
        self.forbidden = forbidden
        self.dest = dest
        # The addresses whose text went to the same address and nowhere else, and came from nowhere else:
        # below a heading whose every text stayed so, the text went where it was (the most usual case).
        self.in_place = {o for o, went in dest.items() if len(went) == 1 and o in went and src.get(o) == went}
        self.pinned_new = {y for y, _ in pinned.values()}
        self.pinned_old = set(pinned)
        self.once_old = _once(a_titled)
        self.once_new = _once(heads.titled)
        self.score = 1.0 * 0.5 + 1.0 + t.address_bonus  # as _proposals adds it up, title 1 and text 1
        self.on = round(self.score, 9) > round(1.0 * 0.5 + 1.0, 9) and self.score >= t.title_min * 0.5

    def proposal(self, x: int, a: Clause, a_sub: set[str]) -> _Proposal | None:
        """The proposal of old heading ``a`` (index ``x``, with the text at ``a_sub`` below it) when it is such
        a heading (see the class), else None."""
        if not self.on or x in self.pinned_old or a.address not in self.once_old:
            return None
        heads = self.heads
        y = heads.index.get(a.address)
        if y is None or y in self.pinned_new or a.address not in self.once_new:
            return None
        b = heads.titled[y]
        if b.title != a.title or (a.kind is not b.kind and _level(a.kind) != _level(b.kind)):
            return None
        if self.forbidden and (a.address, b.address) in self.forbidden:
            return None
        if a.text and b.text and b.address not in self.dest.get(a.address, ()):
            return None
        b_sub = heads.subtree[b.address]
        if not a_sub:
            return None
        if a_sub == b_sub and a_sub <= self.in_place:
            # Where the text went and where the new text came from are then the same addresses.
            return (self.score, x, y, _kept_heading())
        a_dest = _went(a_sub, self.dest)
        if not a_dest or a_dest != b_sub or heads.source(b.address) != a_sub:
            return None
        return (self.score, x, y, _kept_heading())


def _once(headings: list[Clause]) -> set[str]:
    """The addresses that only one of ``headings`` has."""
    seen: set[str] = set()
    twice: set[str] = set()
    for c in headings:
        (twice if c.address in seen else seen).add(c.address)
    return seen - twice


@functools.cache
def _kept_heading() -> Said:
    """Why a heading that kept its place, title and text was matched, as :func:`_proposals` says it."""
    said = [Said(N_("title {score}"), score=1.0), Said(N_("shared text below {share}"), share=1.0), SAME_ADDRESS]
    return joined(said, ", ")


def _proposals(
    x: int,
    a: Clause,
    a_dest: set[str],
    a_sub: set[str],
    heads: _NewHeadings,
    dest: dict[str, set[str]],
    forbidden: set[tuple[str, str]],
    t: Thresholds,
) -> list[_Proposal]:
    """The new headings old heading ``a`` (index ``x``) may pair with, scored (``a_dest``: where the text
    below it went; ``a_sub``: the addresses of that text)."""
    from rapidfuzz import fuzz

    out: list[_Proposal] = []
    for y in sorted(heads.candidates(a, a_dest, t)):
        b = heads.titled[y]
        if _level(a.kind) != _level(b.kind) or (a.address, b.address) in forbidden:
            continue
        if a.text and b.text and b.address not in dest.get(a.address, ()):
            # Both headings head own texts that the text alignment did
            # not pair: a heading goes with its text, so a number reused
            # for a new subject (2007 23, 2017 23) is no retitling.
            continue
        tsim = fuzz.ratio(a.title, b.title) / 100
        sub = _shared_text(a_dest, heads.subtree[b.address], heads.source(b.address), a_sub)
        same = a.address == b.address
        if not (same or sub > 0 or tsim >= t.title_min):
            continue
        s = tsim * 0.5 + sub + (t.address_bonus if same else 0.0)
        # Translators: why two headings were matched; {score}: how alike their titles are, {share}: how much of
        # the text below them the text alignment joins (both 0 to 1).
        said = [Said(N_("title {score}"), score=tsim), Said(N_("shared text below {share}"), share=sub)]
        why = joined([*said, SAME_ADDRESS] if same else said, ", ")
        if s >= t.title_min * 0.5:
            out.append((s, x, y, why))
    return out


def _assign(
    proposals: list[_Proposal], pinned: dict[int, tuple[int, str]]
) -> tuple[dict[int, tuple[int, float, str]], set[int]]:
    """Pins first, then the proposals best first, each heading used once."""
    used_a: dict[int, tuple[int, float, str]] = {x: (y, 1.0, set_by_hand(by)) for x, (y, by) in pinned.items()}
    used_b: set[int] = {y for y, _ in pinned.values()}
    for s, x, y, why in proposals:
        if x in used_a or y in used_b:
            continue
        used_a[x] = (y, s, why)
        used_b.add(y)
    return used_a, used_b


def _title_links(
    a_titled: list[Clause],
    b_titled: list[Clause],
    used_a: dict[int, tuple[int, float, str]],
    used_b: set[int],
    pinned: dict[int, tuple[int, str]],
) -> list[Link]:
    """One link per old heading in document order, then the new headings left alone."""
    out: list[Link] = []
    append, title, by_title = out.append, Aspect.TITLE, (Method.TITLE,)  # (a link per heading)
    for x, a in enumerate(a_titled):
        used = used_a.get(x)
        if used is not None:
            y, s, why = used
            methods, by = ((Method.PINNED,), pinned[x][1]) if x in pinned else (by_title, "")
            append(Link(title, (a.address,), (b_titled[y].address,), round(min(s, 1.0), 4), methods, (why,), by))
        else:
            append(Link(title, (a.address,), (), 0.0, (), ()))
    for y, b in enumerate(b_titled):
        if y not in used_b:
            out.append(Link(Aspect.TITLE, (), (b.address,), 0.0, (), ()))
    return out


def _shared_text(a_dest: set[str], b_sub: set[str], b_src: set[str], a_sub: set[str]) -> float:
    """How much of the text below two headings the text alignment joins.

    Counted on both sides (where the old subtree's text went among the new
    subtree's clauses, and where the new subtree's text came from among the
    old one's), so that aligning B with A gives the same score as A with B.
    """
    total = len(a_dest | b_sub) + len(b_src | a_sub)
    return (len(a_dest & b_sub) + len(b_src & a_sub)) / total if total else 0.0


def _level(kind: Kind) -> int:
    """Headings pair only with headings of their level: containers, articles, the rest."""
    if kind in (Kind.CHAPTER, Kind.PART, Kind.PARAGRAAF, Kind.PAGE):
        return 0
    if kind is Kind.ARTICLE:
        return 1
    return 2
