"""The glossary's words for the study's and the review's closed sets: kinds of change, decisions, flags.

The values themselves (``modified``, ``translation-fix``, ``modal``) stay as
they are in JSON, CSV and the store; these functions give the word a reader
sees, in the interface's language, one word per concept everywhere
(``lawdiff/locale/GLOSSARY-nl.md``: gewijzigd, vervallen, vertaalcorrectie,
modaal).  Each takes the value as a string, so that this module imports
nothing of the pipeline and every stage may use it; a value it does not know
is shown as it is.  Short words that mean other things elsewhere carry a
context (``pgettext("decision", "open")``).
"""

from __future__ import annotations

from lawdiff.i18n import pgettext


def kind(value: str) -> str:
    """A kind of change (:class:`lawdiff.diff.vocabulary.ChangeKind`'s value) as the reader reads it."""
    words = {
        "unchanged": pgettext("kind", "unchanged"),
        "modified": pgettext("kind", "modified"),
        "split": pgettext("kind", "split"),
        "merged": pgettext("kind", "merged"),
        "added": pgettext("kind", "added"),
        "removed": pgettext("kind", "removed"),
        "renumbered": pgettext("kind", "renumbered"),
        "moved": pgettext("kind", "moved"),
    }
    return words.get(value, value)


def heading() -> str:
    """What a change of a clause's title (its heading) is called beside its kind: ``(heading)``."""
    return pgettext("aspect", "heading")


def status(value: str) -> str:
    """A decision's status (:class:`lawdiff.review.values.Status`'s value) as the committee says it."""
    words = {
        "open": pgettext("decision", "open"),
        "accepted": pgettext("decision", "accepted"),
        "query": pgettext("decision", "query"),
        "translation-fix": pgettext("decision", "translation fix"),
        "rejected": pgettext("decision", "rejected"),
    }
    return words.get(value, value)


def flag(value: str) -> str:
    """A significance flag (:class:`lawdiff.diff.vocabulary.Flag`'s value): what kind of words a change touched."""
    words = {
        "modal": pgettext("flag", "modal"),
        "negation": pgettext("flag", "negation"),
        "actor": pgettext("flag", "actor"),
        "number": pgettext("flag", "number"),
        "reference": pgettext("flag", "reference"),
        "condition": pgettext("flag", "condition"),
    }
    return words.get(value, value)
