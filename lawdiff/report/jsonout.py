"""JSON renderings of clause trees, editions and checks.

Key order is fixed and lists keep document order, so the same corpus always
gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lawdiff import __version__, jsontext
from lawdiff.align import Thresholds
from lawdiff.corpus import Corpus, Dangling, PageCheck
from lawdiff.diff import Change, Comparison, History
from lawdiff.model import Clause, Edition, natural_key
from lawdiff.sources.base import Loc

if TYPE_CHECKING:
    from lawdiff.review.view import ReviewView


def dumps(value: Any) -> str:
    return jsontext.dumps(value) + "\n"


def loc(l: Loc) -> dict[str, Any]:  # noqa: E741
    out: dict[str, Any] = {"file": l.file}
    if l.line:
        out["line"] = l.line
    if l.path:
        out["path"] = l.path
    return out


def clause(c: Clause, edition: str = "", deep: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": f"{edition}:{c.address}" if edition else c.address,
        "kind": c.kind.value,
        "address": c.address,
        "label": c.label,
        "title": c.title,
        "text": c.text,
        "source": loc(c.source),
        "references": [
            {"target": r.target, "text": r.printed, "start": r.start, "end": r.end, "via": r.via} for r in c.references
        ],
    }
    if c.marker or c.anchor >= 0:
        out["marker"] = c.marker
        out["anchor"] = c.anchor
    if c.extra:
        out["extra"] = c.extra
    if c.notes:
        out["notes"] = [str(n) for n in c.notes]  # their English (a Said is a str subclass)
    out["footnotes"] = [clause(f, edition, deep) for f in c.footnotes]
    if deep:
        out["children"] = [clause(ch, edition, deep) for ch in c.children]
    else:
        out["children"] = [ch.address for ch in c.children]
    return out


def edition_summary(e: Edition) -> dict[str, Any]:
    clauses = list(e.walk())
    return {
        "name": e.name,
        "year": e.year,
        "printings": list(e.printings),
        "sources": [
            {
                "file": s.file,
                "format": s.format,
                "page": s.page,
                "scope": s.scope,
                "lacking": list(s.lacking),
                "printing": s.printing,
                "printed_pages": s.pages,
            }
            for s in e.sources
        ],
        "articles": [a.address for a in e.articles()],
        "articles_in_part": {
            art: sorted(given, key=natural_key)
            for art, given in sorted(e.held_in_part().items(), key=lambda kv: natural_key(kv[0]))
        },
        "clauses": len(clauses),
        "clauses_with_text": sum(1 for c in clauses if c.text),
        "footnotes": sum(1 for c in clauses if c.kind.value == "footnote"),
        "navigation_entries": len(e.navigation),
        "variant": e.variant,
        "effective": e.effective,
        "amends": e.base,
    }


def editions(corpus: Corpus) -> str:
    return dumps({"editions": [edition_summary(e) for e in corpus.listing()], "aliases": corpus.aliases()})


def show(e: Edition, c: Clause | None) -> str:
    if c is None:
        return dumps(
            {
                "edition": edition_summary(e),
                "navigation": [
                    {"depth": n.depth, "title": n.title, "address": n.address, "path": n.path} for n in e.navigation
                ],
                "clauses": [clause(x, e.name) for x in e.clauses],
            }
        )
    return dumps({"edition": e.name, "clause": clause(c, e.name)})


def page_check(ch: PageCheck) -> dict[str, Any]:
    return {
        "file": ch.file,
        "page": ch.page,
        "edition": ch.edition,
        "format": ch.format,
        "tokens": ch.tokens,
        "placed": ch.placed,
        "ratio": round(ch.ratio, 6),
        "unplaced": [{"source": loc(u.loc), "text": u.text} for u in ch.unplaced],
        "furniture": ch.furniture,
        "notes": [{"source": loc(n[0]), "note": str(n[1])} for n in ch.notes],
    }


def check(corpus: Corpus, dangling: list[Dangling]) -> str:
    return dumps(
        {
            "files": [page_check(ch) for ch in corpus.checks],
            "conflicts": [
                {
                    "edition": e.name,
                    "address": c.address,
                    "field": c.field,
                    "first": {"source": loc(c.first), "text": c.first_text},
                    "second": {"source": loc(c.second), "text": c.second_text},
                }
                for e in corpus.editions
                for c in e.conflicts
            ],
            "dangling_references": [
                {
                    "edition": d.edition,
                    "from": d.source,
                    "target": d.target,
                    "text": d.printed,
                    "source": loc(d.loc),
                    "article_in_corpus": not d.absent_article,
                }
                for d in dangling
            ],
            "skipped": list(corpus.skipped),
            "lost": any(ch.unplaced for ch in corpus.checks),
        }
    )


COMPARE_SCHEMA = "https://lawdiff.invalid/schemas/compare.schema.json"
HISTORY_SCHEMA = "https://lawdiff.invalid/schemas/history.schema.json"
# The versions of the JSON schemas (schemas/*.schema.json): each changes with its schema.
SCHEMA_VERSION = 4  # compare
HISTORY_SCHEMA_VERSION = 5


def comparison(
    comp: Comparison,
    changes: list[Change],
    review: ReviewView | None,
    editions: tuple[Edition, Edition],
) -> str:
    """A comparison as ``schemas/compare.schema.json`` has it; ``editions`` (old, new) give the digests."""
    return "".join(comparison_pieces(comp, changes, review, editions))


def comparison_pieces(
    comp: Comparison,
    changes: list[Change],
    review: ReviewView | None,
    editions: tuple[Edition, Edition],
) -> tuple[str, ...]:
    """The text of :func:`comparison` in pieces to be written one after the other (:func:`jsontext.pieces`:
    the JSON of a paragraph of megabytes is never joined whole)."""
    digests = {e.name: e.digest() for e in editions}
    doc = {
        "$schema": COMPARE_SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "lawdiff": {"version": __version__, "editions": digests},
        "old": comp.old,
        "new": comp.new,
        "thresholds": comp.thresholds.as_dict(),
        "counts": comp.counts(changes),
        "changes": [change(ch, review) for ch in changes],
        "patterns": [
            {
                "flag": p.flag.value,
                "removed": list(p.removed),
                "added": list(p.added),
                "changes": list(p.changes),
                "addresses": list(p.addresses),
            }
            for p in comp.patterns_of(changes)
        ],
    }
    return (*jsontext.pieces(doc), "\n")


def history(h: History, thresholds: Thresholds, editions: Iterable[Edition]) -> str:
    """A clause's history as ``schemas/history.schema.json`` has it; ``editions``, those it was followed
    through (the study's), give the digests, as :func:`comparison` records them."""
    return dumps(
        {
            "$schema": HISTORY_SCHEMA,
            "schema_version": HISTORY_SCHEMA_VERSION,
            "lawdiff": {"version": __version__, "editions": {e.name: e.digest() for e in editions}},
            "thresholds": thresholds.as_dict(),
            "clause": h.start,
            "introduced": h.introduced,
            "introduced_or_earlier": list(h.or_earlier),
            "steps": [
                {
                    "edition": s.edition,
                    "in_corpus": s.in_corpus,
                    "addresses": list(s.addresses),
                    "texts": list(s.texts),
                    "change": s.change,
                    "changes": [change(ch) for ch in s.changes],
                }
                for s in h.steps
            ],
        }
    )


def change(ch: Change, review: ReviewView | None = None) -> dict[str, Any]:
    """A change as the JSON schema (schemas/compare.schema.json) describes it (``review``: with its decision)."""
    out: dict[str, Any] = {
        "id": ch.id,
        "kind": ch.kind.value,
        "aspect": ch.aspect.value,
        "old": list(ch.old),
        "new": list(ch.new),
        "article": ch.article,
        "renumbered": ch.renumbered,
        "moved": ch.moved,
        "title_changed": ch.title_changed,
        "old_title": ch.old_title,
        "new_title": ch.new_title,
        "title_diff": jsontext.StrPairs([(p.op._value_, p.text) for p in ch.title_diff]),
        "similarity": ch.similarity,
        "editorial_only": ch.editorial_only,
        # (The operation's value read off the member: a look-up by the member hashed it in Python, Enum's
        # __hash__, for each of the 22,000 pieces of a paragraph of megabytes.)
        "diff": jsontext.StrPairs([(p.op._value_, p.text) for p in ch.diff]),
        "references": [
            {"status": r.status.value, "old": r.old, "new": r.new, "consistent": r.consistent} for r in ch.references
        ],
        "score": ch.score,
        "uncertain": ch.uncertain,
        "certainty": ch.certainty,
        "method": ch.method,
        "reasons": [str(r) for r in ch.reasons],  # English (JSON is for programs)
        "old_texts": list(ch.old_texts),
        "new_texts": list(ch.new_texts),
        "counterpart_in_corpus": ch.counterpart_in_corpus,
        "scope": ch.scope.value,
        "pinned_by": str(ch.pinned_by),
        "flags": [{"flag": s.flag.value, "removed": list(s.removed), "added": list(s.added)} for s in ch.signals],
        "normative": ch.normative,
        "significance": ch.significance,
    }
    if review is not None:
        entry = review.entry(ch.id)
        d = entry.decision
        out["review"] = {
            "status": entry.status.value,
            "state": entry.state.value,
            "assignee": entry.assignee,
            "decided_by": d.author if d else "",
            "decided_on": {
                "old_texts": list(d.old_texts),
                "new_texts": list(d.new_texts),
                "old_since": jsontext.StrPairs([(p.op._value_, p.text) for p in entry.since[0]]),
                "new_since": jsontext.StrPairs([(p.op._value_, p.text) for p in entry.since[1]]),
            }
            if d is not None and entry.state.value == "outdated"
            else None,
            "comments": [
                {"id": c.id, "author": c.author, "created": c.created, "edited": c.edited, "text": c.text}
                for c in entry.comments
            ],
        }
    return out
