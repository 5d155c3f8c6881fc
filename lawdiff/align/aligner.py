"""The text alignment: identity, pairs, pieces, gaps (see :mod:`lawdiff.align`).

Which pairs are worth weighing and how much each weighs is :mod:`lawdiff.align.scoring`;
this module decides, pass by pass, which of them to link.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable

from lawdiff.align.certainty import with_certainty
from lawdiff.align.links import (
    COMMITTEE,
    METHOD_SAID,
    Alignment,
    Aspect,
    Corrections,
    Link,
    Method,
    Unit,
    set_by_hand,
)
from lawdiff.align.scoring import Scorer
from lawdiff.align.sentences import Sentences, best_sentence
from lawdiff.align.space import Space, units
from lawdiff.align.thresholds import (
    ADJACENT_UNITS,
    DEFAULT_THRESHOLDS,
    VERBATIM_WORDS,
    Thresholds,
)
from lawdiff.align.titles import align_titles
from lawdiff.i18n.said import Said, joined
from lawdiff.model import Edition


def align(
    old: Edition,
    new: Edition,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    corrections: Corrections | None = None,
) -> Alignment:
    """Align the clauses of two editions (see the module docstring).

    ``corrections``: the committee's pins and forbidden pairs for this pair
    of editions; a pin replaces whatever the aligner would have linked its
    clauses to, and the rest is aligned around it.
    """
    places: dict[str, tuple[str, str]] = {}  # (the two editions share most addresses)
    a_units = units(old, places)
    b_units = units(new, places, a_units)
    fixes = corrections or Corrections()
    aligner = _Aligner(a_units, b_units, thresholds, declared=same_lineage(old, new), corrections=fixes)
    found = aligner.run()
    space = aligner.scorer.made_space
    counts = space.counts if space is not None else None
    text_links = with_certainty(found, a_units, b_units, counts=counts)
    title_links = with_certainty(
        align_titles(old, new, text_links, thresholds, fixes), a_units, b_units, text_links, counts=counts
    )
    old_articles = tuple(dict.fromkeys(u.article for u in a_units if u.article))
    new_articles = tuple(dict.fromkeys(u.article for u in b_units if u.article))
    return Alignment(old.name, new.name, tuple(text_links + title_links), thresholds, old_articles, new_articles)


def same_lineage(old: Edition, new: Edition) -> bool:
    """Whether the editions are versions of one printed edition (``2017`` and
    ``2017+2024-03-01``): an amendment replaces a clause at its address, so
    there the address itself says which clause became which."""
    root_old = old.base or old.name
    root_new = new.base or new.name
    return bool(old.effective or new.effective) and root_old == root_new


class _Aligner:
    def __init__(
        self,
        old: list[Unit],
        new: list[Unit],
        t: Thresholds,
        declared: bool = False,
        corrections: Corrections | None = None,
    ) -> None:
        self.old = old
        self.new = new
        self.t = t
        self.declared = declared
        fixes = corrections or Corrections()
        # (The units by address only where there are corrections to place: most pairs have none.)
        old_at = {u.address: i for i, u in enumerate(old)} if fixes else {}
        new_at = {u.address: j for j, u in enumerate(new)} if fixes else {}
        # Hand corrections: pinned groups are linked first and closed to any
        # further piece; forbidden pairs are never linked.
        self.pins: list[tuple[list[int], list[int], str]] = []
        for pin in fixes.pins:
            olds = [old_at[a] for a in pin.old if a in old_at]
            news = [new_at[a] for a in pin.new if a in new_at]
            if olds and news:
                self.pins.append((olds, news, pin.by))
        self.closed_old = {i for olds, _, _ in self.pins for i in olds}
        self.closed_new = {j for _, news, _ in self.pins for j in news}
        self.forbidden = {(old_at[f.old], new_at[f.new]) for f in fixes.forbids if f.old in old_at and f.new in new_at}
        self.pinned_by: dict[tuple[int, int], str] = {}
        self.scorer = Scorer(old, new, t)
        # Matches: old index -> set of new indices, and back.
        self.o2n: dict[int, list[int]] = defaultdict(list)
        self.n2o: dict[int, list[int]] = defaultdict(list)
        self.method: dict[tuple[int, int], Method] = {}

    @property
    def space(self) -> Space:
        return self.scorer.space

    # -- identity -----------------------------------------------------------

    def identity(self) -> None:
        """Identity first: a text found once on each side, or a same-address pair
        whose words agree beyond ``identity_min``, needs no search."""
        if self.declared:
            # Versions of one edition: the amendment says which clause it
            # replaces, by its address.
            by_addr = {u.address: j for j, u in enumerate(self.new)}
            for i, u in enumerate(self.old):
                j = by_addr.get(u.address)
                if j is not None:
                    self._link(i, j, Method.DECLARED)
        old_texts = [u.text for u in self.old]
        new_texts = [u.text for u in self.new]
        old_counts, new_counts = Counter(old_texts), Counter(new_texts)
        new_by_text = {text: j for j, text in enumerate(new_texts) if new_counts[text] == 1}
        o2n, n2o = self.o2n, self.n2o
        # Without corrections nothing is closed or forbidden: each clause found once on each side is linked
        # as _link links it, without its checks (most clauses of two editions).
        link = self._link if self.forbidden or self.closed_old or self.closed_new else None
        method, identity = self.method, Method.IDENTITY
        for i, text in enumerate(old_texts):
            j = new_by_text.get(text) if old_counts[text] == 1 else None
            if j is not None and i not in o2n and j not in n2o:
                if link is not None:
                    link(i, j, identity)
                else:
                    o2n[i] = [j]
                    n2o[j] = [i]
                    method[(i, j)] = identity
        if len(o2n) == len(self.old) or len(n2o) == len(self.new):
            return  # (every clause of a side found its text: none is left to find by its address)
        new_by_addr = {u.address: j for j, u in enumerate(self.new)}
        for i, u in enumerate(self.old):
            j = new_by_addr.get(u.address)
            if j is None or i in o2n or j in n2o:
                continue
            if self.scorer.text(i, j) >= self.t.identity_min:
                self._link(i, j, Method.IDENTITY)

    def _link(self, i: int, j: int, method: Method) -> None:
        if (i, j) in self.forbidden:
            return
        if method is not Method.PINNED and (i in self.closed_old or j in self.closed_new):
            return
        self.o2n[i].append(j)
        self.n2o[j].append(i)
        self.method[(i, j)] = method

    # -- phases -------------------------------------------------------------

    def run(self) -> list[Link]:
        for olds, news, by in self.pins:
            for i in olds:
                for j in news:
                    self._link(i, j, Method.PINNED)
                    self.pinned_by[(i, j)] = by
        self.identity()
        cands = self.scorer.candidates(self.o2n, self.n2o)
        if cands:  # none when every clause found its text or its address (nothing for the phases to weigh)
            self.verbatim_pieces(cands)
            self.pairs(cands)
            self.pieces(cands, adjacent=False)
        self.gaps()
        if cands:
            # Pieces that only their place vouches for come last, so that an
            # in-order pair inside a gap is preferred to a loose piece.
            self.pieces(cands, adjacent=True)
            # Last, for what is still alone: pieces that only one sentence of their whole vouches for.
            self.sentence_pieces(cands)
        return self.links()

    def verbatim_pieces(self, cands: list[tuple[int, int]]) -> None:
        """A clause found word for word inside one that identity matched is a
        piece of it (the rest of a split or merge), before any looser pair
        can take it."""
        space = self.space
        proposals: list[tuple[float, int, int, str]] = []
        for i, j in cands:
            if i in self.o2n and j not in self.n2o and space.new_words[j] >= VERBATIM_WORDS:
                share = space.new_in_old(j, [i])
                if share >= self.t.verbatim_min:
                    proposals.append((share, i, j, "split"))
            if j in self.n2o and i not in self.o2n and space.old_words[i] >= VERBATIM_WORDS:
                share = space.old_in_new(i, [j])
                if share >= self.t.verbatim_min:
                    proposals.append((share, i, j, "merge"))
        proposals.sort(
            key=lambda x: (-round(x[0], 9), abs(self.old[x[1]].position - self.new[x[2]].position), x[1] + x[2], x[3])
        )
        for _, i, j, how in proposals:
            if how == "split":
                if j in self.n2o or any(len(self.n2o[k]) > 1 for k in self.o2n[i]):
                    continue
                if space.old_in_new(i, self.o2n[i]) < self.t.explained_max:
                    self._link(i, j, Method.PIECE)
            else:
                if i in self.o2n or any(len(self.o2n[k]) > 1 for k in self.n2o[j]):
                    continue
                if space.new_in_old(j, self.n2o[j]) < self.t.explained_max:
                    self._link(i, j, Method.PIECE)

    def pairs(self, cands: list[tuple[int, int]]) -> None:
        scored = []
        for i, j in cands:
            s = self.scorer.score(i, j)
            if s >= self.t.match_min and self.scorer.texts[(i, j)] >= self.t.text_min:
                scored.append((s, i, j))
        # Best first; ties broken by closeness in document order, symmetrically.
        scored.sort(
            key=lambda x: (-round(x[0], 9), abs(self.old[x[1]].position - self.new[x[2]].position), x[1] + x[2])
        )
        for _, i, j in scored:
            if i not in self.o2n and j not in self.n2o:
                self._link(i, j, Method.PAIR)

    def pieces(self, cands: list[tuple[int, int]], adjacent: bool) -> None:
        """Splits and merges: unmatched units that are pieces of a matched one."""
        space = self.space
        proposals: list[tuple[float, int, int, str]] = []
        floor = min(self.t.piece_min, self.t.adjacent_piece_min, self.t.lead_in_min) if adjacent else self.t.piece_min
        shares: dict[tuple[int, int, str], float] = {}
        for i, j in cands:
            if j not in self.n2o:
                share = space.new_in_old(j, [i])
                if share >= floor:
                    shares[(i, j, "split")] = share
                    proposals.append((share + self._near(i, j), i, j, "split"))
            if i not in self.o2n:
                share = space.old_in_new(i, [j])
                if share >= floor:
                    shares[(i, j, "merge")] = share
                    proposals.append((share + self._near(i, j), i, j, "merge"))
        proposals.sort(
            key=lambda x: (-round(x[0], 9), abs(self.old[x[1]].position - self.new[x[2]].position), x[1] + x[2], x[3])
        )
        for _, i, j, how in proposals:
            if how == "split":
                # The old unit i is the whole, the new unit j a piece of it.
                self._try_piece(
                    i, j, i, j, self.o2n, self.n2o, self.new, space.old_in_new, shares[(i, j, how)], adjacent
                )
            else:
                self._try_piece(
                    j, i, i, j, self.n2o, self.o2n, self.old, space.new_in_old, shares[(i, j, how)], adjacent
                )

    def _try_piece(
        self,
        whole: int,
        piece: int,
        i: int,
        j: int,
        whole_matches: dict[int, list[int]],
        piece_matches: dict[int, list[int]],
        piece_side: list[Unit],
        cover: Callable[[int, list[int]], float],
        share: float,
        adjacent: bool,
    ) -> None:
        """Join ``piece`` to the match of ``whole`` (a split seen from the old
        side, a merge from the new: the same rule with the sides swapped)."""
        if piece in piece_matches:
            return
        # Joining a split must not turn a merge into a tangle.
        if any(len(piece_matches[k]) > 1 for k in whole_matches.get(whole, [])):
            return
        current = list(whole_matches.get(whole, []))
        before = cover(whole, current) if current else 0.0
        if before >= self.t.explained_max:
            return
        after = cover(whole, [*current, piece])
        near = any(self._contiguous(piece, k, piece_side, piece_matches, whole) for k in current)
        lead_in = any(piece_side[k].parent == piece_side[piece].address for k in current)
        if not current and self.scorer.score(i, j) >= self.t.match_min:
            self._link(i, j, Method.PAIR)
        elif current and (
            (share >= self.t.piece_min and after - before >= self.t.gain_min)
            or (adjacent and near and share >= self.t.adjacent_piece_min)
            or (adjacent and near and lead_in and share >= self.t.lead_in_min)
        ):
            self._link(i, j, Method.PIECE)

    def sentence_pieces(self, cands: list[tuple[int, int]]) -> None:
        """Splits and merges under rewording: a unit still alone whose words match one sentence of a
        matched whole (:mod:`lawdiff.align.sentences`), and that stands next to a part of it, joins that
        whole's match, best first."""
        idf = self.space.idf
        old_s = Sentences([u.text for u in self.old])
        new_s = Sentences([u.text for u in self.new])
        proposals: list[tuple[float, int, int, str]] = []
        for i, j in cands:
            # Within one article (or the article its match went to): a reworded part carries too few of its
            # words for a search across the law.
            if (i, j) in self.forbidden or not self._same_place(i, j):
                continue
            if j not in self.n2o and i not in self.closed_old:
                d = best_sentence(old_s.of(i), self.space.new_tf[j], idf)
                if d >= self.t.sentence_min:
                    proposals.append((d, i, j, "split"))
            if i not in self.o2n and j not in self.closed_new:
                d = best_sentence(new_s.of(j), self.space.old_tf[i], idf)
                if d >= self.t.sentence_min:
                    proposals.append((d, i, j, "merge"))
        proposals.sort(
            key=lambda x: (-round(x[0], 9), abs(self.old[x[1]].position - self.new[x[2]].position), x[1] + x[2], x[3])
        )
        for _, i, j, how in proposals:
            if i in self.o2n and j in self.n2o:
                continue
            if how == "split":
                whole, part, matches, back, side = i, j, self.o2n, self.n2o, self.new
            else:
                whole, part, matches, back, side = j, i, self.n2o, self.o2n, self.old
            current = matches.get(whole, [])
            # A part stands next to a part already matched (a split keeps its parts together), and joining
            # must not turn a merge into a tangle.
            if (
                part not in back
                and current
                and all(len(back[k]) == 1 for k in current)
                and any(self._contiguous(part, k, side, back, whole) for k in current)
            ):
                self._link(i, j, Method.PIECE)

    def _same_place(self, i: int, j: int) -> bool:
        """Whether old unit i and new unit j stand in the same article, or in articles a match joins."""
        a, b = self.old[i].article, self.new[j].article
        if a == b:
            return True
        return any(self.new[k].article == b for k in self.o2n.get(i, [])) or any(
            self.old[k].article == a for k in self.n2o.get(j, [])
        )

    @staticmethod
    def _contiguous(x: int, k: int, side: list[Unit], matches: dict[int, list[int]], whole: int) -> bool:
        """Whether unit x stands next to unit k, with nothing matched elsewhere between them."""
        lo, hi = sorted((side[x].position, side[k].position))
        if hi - lo > ADJACENT_UNITS:
            return False
        return all(not matches.get(m) or matches[m] == [whole] for m in range(lo + 1, hi))

    def _near(self, i: int, j: int) -> float:
        """A small preference for pieces close to their whole (same article)."""
        a, b = self.old[i], self.new[j]
        return self.t.article_bonus if a.article and a.article == b.article else 0.0

    def gaps(self) -> None:
        """Pair leftovers in order between matches, inside corresponding articles."""
        if len(self.o2n) == len(self.old) or len(self.n2o) == len(self.new):
            return  # (every clause of a side matched: no gap has a leftover on both sides)
        old_by_art: dict[str, list[int]] = defaultdict(list)
        new_by_art: dict[str, list[int]] = defaultdict(list)
        for i, u in enumerate(self.old):
            old_by_art[u.article].append(i)
        for j, u in enumerate(self.new):
            new_by_art[u.article].append(j)
        # Article pairs: same number, or joined by at least one match.
        pairs: set[tuple[str, str]] = set()
        for art in old_by_art:
            if art and art in new_by_art:
                pairs.add((art, art))
        for i, js in self.o2n.items():
            for j in js:
                a, b = self.old[i].article, self.new[j].article
                if a and b:
                    pairs.add((a, b))
        for a_art, b_art in sorted(pairs):
            self._gap_pair(old_by_art[a_art], new_by_art[b_art])

    def _gap_pair(self, old_ids: list[int], new_ids: list[int]) -> None:
        # Only the units left alone can pair in a gap: an article pair with none on a side has no gap to fill
        # (most articles of two editions), and the gaps are read off those left alone.
        lone_old = [i for i in old_ids if i not in self.o2n]
        lone_new = [j for j in new_ids if j not in self.n2o]
        if not lone_old or not lone_new:
            return
        # Anchors: matches inside this article pair, in document order.
        new_set = set(new_ids)
        anchors = sorted((i, j) for i in old_ids for j in self.o2n.get(i, []) if j in new_set)
        # Gaps between consecutive anchors that keep order on both sides.
        bounds: list[tuple[int, int]] = [(-1, -1)]
        for i, j in anchors:
            if i > bounds[-1][0] and j > bounds[-1][1]:
                bounds.append((i, j))
        bounds.append((10**9, 10**9))
        for (i0, j0), (i1, j1) in itertools.pairwise(bounds):
            gap_old = [i for i in lone_old if i0 < i < i1 and i not in self.o2n]
            gap_new = [j for j in lone_new if j0 < j < j1 and j not in self.n2o]
            if gap_old and gap_new:
                for i, j in self._order_pairs(gap_old, gap_new):
                    self._link(i, j, Method.GAP)

    def _gap_ok(self, i: int, j: int) -> bool:
        """Whether two leftovers may pair in a gap: their words must reach
        ``gap_min`` by themselves.  The bonuses (same address, same article)
        are not counted here: together they exceed ``gap_min``, so counting
        them would pair any two texts at a reused number (2007 23 and 2017 23)
        that share a single word."""
        if (i, j) in self.forbidden:
            return False
        return self.scorer.text(i, j) >= self.t.gap_min

    def _order_pairs(self, gap_old: list[int], gap_new: list[int]) -> list[tuple[int, int]]:
        """Best in-order pairing (a small dynamic programme, like a diff)."""
        n, m = len(gap_old), len(gap_new)
        best = [[0.0] * (m + 1) for _ in range(n + 1)]
        for x in range(n - 1, -1, -1):
            for y in range(m - 1, -1, -1):
                s = self.scorer.score(gap_old[x], gap_new[y])
                take = s + best[x + 1][y + 1] if self._gap_ok(gap_old[x], gap_new[y]) else -1.0
                best[x][y] = max(take, best[x + 1][y], best[x][y + 1])
        out: list[tuple[int, int]] = []
        x = y = 0
        while x < n and y < m:
            s = self.scorer.score(gap_old[x], gap_new[y])
            ok = self._gap_ok(gap_old[x], gap_new[y])
            if ok and math.isclose(best[x][y], s + best[x + 1][y + 1]):
                out.append((gap_old[x], gap_new[y]))
                x += 1
                y += 1
            elif math.isclose(best[x][y], best[x + 1][y]):
                x += 1
            else:
                y += 1
        return out

    # -- result ---------------------------------------------------------------

    def links(self) -> list[Link]:
        out: list[Link] = []
        seen_old: set[int] = set()
        seen_new: set[int] = set()
        # Walk both editions in document order, emitting each group once.
        for i in range(len(self.old)):
            if i in seen_old:
                continue
            if i not in self.o2n:
                seen_old.add(i)
                out.append(Link(Aspect.TEXT, (self.old[i].address,), (), 0.0, (), ()))
                continue
            js = self.o2n[i]
            if len(js) == 1 and len(self.n2o[js[0]]) == 1:  # a pair matched alone: its own component
                # (No other group holds either unit, and its new one is matched: neither needs to be seen.)
                j = js[0]
                out.append(self._pair_link(i, j) if (i, j) not in self.pinned_by else self.group_link([i], js))
                continue
            group_old, group_new = self._component(i)
            seen_old.update(group_old)
            seen_new.update(group_new)
            out.append(self._group_link(group_old, group_new))
        for j in range(len(self.new)):
            if j not in seen_new and j not in self.n2o:
                out.append(Link(Aspect.TEXT, (), (self.new[j].address,), 0.0, (), ()))
        return out

    def _component(self, start: int) -> tuple[list[int], list[int]]:
        olds, news = {start}, set()
        todo = [("o", start)]
        while todo:
            side, k = todo.pop()
            if side == "o":
                for j in self.o2n.get(k, []):
                    if j not in news:
                        news.add(j)
                        todo.append(("n", j))
            else:
                for i in self.n2o.get(k, []):
                    if i not in olds:
                        olds.add(i)
                        todo.append(("o", i))
        return sorted(olds), sorted(news)

    def _group_link(self, olds: list[int], news: list[int]) -> Link:
        if len(olds) == 1 and len(news) == 1 and (olds[0], news[0]) not in self.pinned_by:
            return self._pair_link(olds[0], news[0])
        return self.group_link(olds, news)

    def group_link(self, olds: list[int], news: list[int]) -> Link:
        """The link of a group of matched units (a split, a merge, a pair set by hand, or any pair: the
        short way of :meth:`_pair_link` must give what this gives)."""
        pairs = [(i, j) for i in olds for j in self.o2n.get(i, []) if j in news]
        methods = tuple(sorted({self.method[p] for p in pairs}, key=lambda m: m.value))
        score = min(self.scorer.score(i, j) for i, j in pairs) if len(pairs) == 1 else self._group_score(olds, news)
        reasons: list[Said] = []
        for i, j in pairs:
            r: tuple[str, ...] = self.scorer.reasons(i, j, self.method.get((i, j)))
            how = self.method[(i, j)]
            if how is Method.PINNED:
                r = (set_by_hand(self.pinned_by[(i, j)]), *r)
            reason = joined(r, ", ")
            if how not in (Method.PAIR, Method.IDENTITY, Method.DECLARED):
                reason = joined((reason, METHOD_SAID.get(how) or f"({how.value})"), " ")
            if len(pairs) > 1:
                reason = joined((f"{self.old[i].address}->{self.new[j].address}: ", reason))
            reasons.append(reason)
        return Link(
            Aspect.TEXT,
            tuple(self.old[i].address for i in olds),
            tuple(self.new[j].address for j in news),
            round(min(score, 1.0), 4),
            methods,
            tuple(reasons),
            pinned_by=next((self.pinned_by[p] or COMMITTEE for p in pairs if p in self.pinned_by), ""),
        )

    def _pair_link(self, i: int, j: int) -> Link:
        """The link of one old unit matched to one new unit and to nothing else, not by hand: what
        :meth:`_group_link` makes of it, made the short way (most links of two editions are such pairs,
        most of them of a clause that kept its text)."""
        how = self.method[(i, j)]
        kept = self.scorer.kept_link(i, j, how)
        if kept is not None:
            reason, score = kept
        else:
            reason = self.scorer.said(i, j, how)
            score = round(min(self.scorer.score(i, j), 1.0), 4)
        if how is not Method.PAIR and how is not Method.IDENTITY and how is not Method.DECLARED:
            reason = joined((reason, METHOD_SAID.get(how) or f"({how.value})"), " ")
        return Link(Aspect.TEXT, (self.old[i].address,), (self.new[j].address,), score, (how,), (reason,))

    def _group_score(self, olds: list[int], news: list[int]) -> float:
        if len(olds) == 1:
            return self.space.old_in_new(olds[0], news)
        if len(news) == 1:
            return self.space.new_in_old(news[0], olds)
        return min(self.space.old_in_new(i, news) for i in olds)
