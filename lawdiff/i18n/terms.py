"""The committee's words for lawdiff's closed vocabularies, in the interface's language.

The study names its kinds of change, flags, decisions and so on by English
values (``ChangeKind.MODIFIED.value == "modified"``): those stay the words of
JSON, CSV and the command line.  A reader is shown them through these
functions, one per vocabulary, each in the glossary's word
(``lawdiff/locale/GLOSSARY-nl.md``): "gewijzigd", "vervallen", "aanvaard".
They take the values, not the enums, so that every stage may use them.  A
value the vocabulary does not know (a newer store's status) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from lawdiff.i18n import language, pgettext

# Each vocabulary's words in each language, made once: a report says a kind of change on every row.
_MADE: dict[tuple[Callable[[], dict[str, str]], str], dict[str, str]] = {}


def _words(table: Callable[[], dict[str, str]]) -> dict[str, str]:
    """``table()`` in the interface's language, made once per language."""
    key = (table, language())
    found = _MADE.get(key)
    if found is None:
        found = _MADE[key] = table()
    return found


def _kinds() -> dict[str, str]:
    return {
        "unchanged": pgettext("change", "unchanged"),
        "modified": pgettext("change", "modified"),
        "split": pgettext("change", "split"),
        "merged": pgettext("change", "merged"),
        "added": pgettext("change", "added"),
        "removed": pgettext("change", "removed"),
    }


def kind(value: str) -> str:
    """A kind of change (``lawdiff.diff.vocabulary.ChangeKind``): "modified" -> "gewijzigd"."""
    return _words(_kinds).get(value, value)


def _notes() -> dict[str, str]:
    return {
        "renumbered": pgettext("change", "renumbered"),
        "moved": pgettext("change", "moved"),
        "title changed": pgettext("change", "title changed"),
        "editorial only": pgettext("change", "editorial only"),
        "normative": pgettext("change", "normative"),
        "heading": pgettext("change", "heading"),
    }


def note(value: str) -> str:
    """What else a change is besides its kind: renumbered, moved, its title changed, editorial only,
    normative, a heading told on its own."""
    return _words(_notes).get(value, value)


def _flags() -> dict[str, str]:
    return {
        "modal": pgettext("flag", "modal"),
        "negation": pgettext("flag", "negation"),
        "actor": pgettext("flag", "actor"),
        "number": pgettext("flag", "number"),
        "reference": pgettext("flag", "reference"),
        "condition": pgettext("flag", "condition"),
    }


def flag(value: str) -> str:
    """A significance flag (``lawdiff.diff.vocabulary.Flag``): "modal" -> "modaal"."""
    return _words(_flags).get(value, value)


def _statuses() -> dict[str, str]:
    return {
        "open": pgettext("decision", "open"),
        "accepted": pgettext("decision", "accepted"),
        "query": pgettext("decision", "query"),
        "translation-fix": pgettext("decision", "translation-fix"),
        "rejected": pgettext("decision", "rejected"),
    }


def status(value: str) -> str:
    """A decision (``lawdiff.review.values.Status``): "accepted" -> "aanvaard"."""
    return _words(_statuses).get(value, value)


# The decisions in every interface language, for the command line, which takes them in either
# ("review set ID aanvaard"); the English values come first, and stay what is stored.
_STATUS_WORDS = {
    "open": ("open",),
    "accepted": ("accepted", "aanvaard"),
    "query": ("query", "vraag"),
    "translation-fix": ("translation-fix", "vertaalcorrectie"),
    "rejected": ("rejected", "afgewezen"),
}


def status_value(word: str) -> str | None:
    """The stored value of a decision named in any interface language ("aanvaard" -> "accepted"), or None."""
    wanted = word.strip().casefold()
    return next((value for value, words in _STATUS_WORDS.items() if wanted in words), None)


def status_words() -> tuple[str, ...]:
    """The decisions as a person writes them in the interface's language, for a message that lists them."""
    return tuple(status(value) for value in _STATUS_WORDS)


def clause_kind(value: str) -> str:
    """A kind of clause (``lawdiff.model.Kind``): "article" -> "artikel"."""
    words = {
        "chapter": pgettext("clause", "chapter"),
        "part": pgettext("clause", "part"),
        "paragraaf": pgettext("clause", "paragraaf"),
        "page": pgettext("clause", "page"),
        "article": pgettext("clause", "article"),
        "section": pgettext("clause", "section"),
        "subsection": pgettext("clause", "subsection"),
        "item": pgettext("clause", "item"),
        "subitem": pgettext("clause", "subitem"),
        "paragraph": pgettext("clause", "paragraph"),
        "footnote": pgettext("clause", "footnote"),
    }
    return words.get(value, value)


def correction(value: str) -> str:
    """A hand correction of the alignment (``lawdiff.review.values.CorrectionKind``): "pin" -> "vastzetten"."""
    words = {"pin": pgettext("correction", "pin"), "forbid": pgettext("correction", "forbid")}
    return words.get(value, value)


def action(value: str) -> str:
    """A write the review log records (``lawdiff.review.values.LogEntry.action``): "status", "comment-edit"."""
    words = {
        "status": pgettext("log", "status"),
        "answer": pgettext("log", "answer"),
        "comment": pgettext("log", "comment"),
        "assign": pgettext("log", "assign"),
        "decision": pgettext("log", "decision"),
        "question": pgettext("log", "question"),
        "mark": pgettext("log", "mark"),
        "comment-edit": pgettext("log", "comment-edit"),
        "comment-delete": pgettext("log", "comment-delete"),
        "meeting-start": pgettext("log", "meeting-start"),
        "meeting-end": pgettext("log", "meeting-end"),
        "pin": pgettext("log", "pin"),
        "forbid": pgettext("log", "forbid"),
        "unpin": pgettext("log", "unpin"),
        "undo": pgettext("log", "undo"),
        "import": pgettext("log", "import"),
    }
    return words.get(value, value)


def record(table: str) -> str:
    """What a record of the review store is, by its table ("decisions" -> "beslissing")."""
    words = {
        "decisions": pgettext("record", "decision"),
        "comments": pgettext("record", "comment"),
        "meetings": pgettext("record", "meeting"),
        "corrections": pgettext("record", "correction"),
        "marks": pgettext("record", "mark"),
    }
    return words.get(table, table.removesuffix("s"))


def field(name: str) -> str:
    """A field of a record of the review store, as the log names what changed ("assignee")."""
    words = {
        "status": pgettext("field", "status"),
        "assignee": pgettext("field", "assignee"),
        "text": pgettext("field", "text"),
        "date": pgettext("field", "date"),
        "attendees": pgettext("field", "attendees"),
        "kind": pgettext("field", "kind"),
        "old": pgettext("field", "old"),
        "new": pgettext("field", "new"),
        "question": pgettext("field", "question"),
        "deleted": pgettext("field", "deleted"),
        "edited": pgettext("field", "edited"),
        "ended": pgettext("field", "ended"),
        "meeting": pgettext("field", "meeting"),
        "title": pgettext("field", "title"),
    }
    return words.get(name, name)
