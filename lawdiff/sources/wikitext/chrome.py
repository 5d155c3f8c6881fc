"""The wiki's own words around a page's text, when a page is saved from the browser.

A page copied or saved as text from the wiki carries, besides its title,
lines that MediaWiki prints around every page: the site's tagline under
the title (``Uit Spelregels voor tafelarbiters``), for an old version the
revision line (``Versie door Kees (overleg | bijdragen) op 10 aug 2019 om
22:49``) and its navigation (``(wijz) ← Oudere versie | Huidige versie
(wijz) | Nieuwere versie → (wijz)``), the skip links (``Naar navigatie
springen``), a redirect note (``(Doorverwezen vanaf ...)``), and below the
text where it came from (``Afkomstig van "https://..."``), its categories
and when it was last edited.  These are not law text: read as such they
would make every page saved this way "reworded" against one saved clean.

Only lines at the head of the page (straight after the title, before any
other text) and at its tail (after all text) are taken, each by MediaWiki's
exact wording, in Dutch and in English; the same words inside the text stay
text.  Each taken line is furniture with its reason, so ``check`` still
accounts for it.

A comparison of two versions (``Sjabloon:2007:45: verschil tussen
versies``) is not a page at all: :func:`is_diff_view` tells the reader to
refuse it.
"""

from __future__ import annotations

import re

# The site's tagline, MediaWiki's "From {{SITENAME}}": a short name, no sentence.
_TAGLINE = re.compile(r"^(?:Uit|From) [A-Z][^.;:!?]{0,78}$")
_HEAD = (
    # The revision line of an old version (?oldid=...).
    (re.compile(r"^Versie (?:door|van) .{1,200} op .{1,40} om \d{1,2}:\d{2}"), "revision line of an old version"),
    (re.compile(r"^(?:Latest )?[Rr]evision as of \d{1,2}:\d{2}, "), "revision line of an old version"),
    (
        re.compile(r"Oudere versie.*(?:Huidige versie|Nieuwere versie)|Older revision.*(?:Latest|Newer) revision"),
        "navigation between versions",
    ),
    (
        re.compile(
            r"^(?:Naar (?:navigatie|zoeken) springen|Ga naar: navigatie, zoeken|Jump to (?:navigation|search))$"
        ),
        "skip link",
    ),
    (re.compile(r"^\((?:Doorverwezen vanaf|Redirected from) .{1,200}\)$"), "redirect note"),
)
_TAIL = (
    (re.compile(r'^(?:Afkomstig van|Opgehaald van|Retrieved from) "?https?://\S+"?$'), "where the page came from"),
    (
        re.compile(
            r"^(?:Categorie|Categorieën|Category|Categories|Verborgen categorie(?:ën)?|Hidden categor(?:y|ies)):"
        ),
        "categories",
    ),
    (
        re.compile(
            r"^(?:Deze pagina is (?:voor het laatst bewerkt op|\d[\d.]* keer bekeken)|This page was last edited on)"
        ),
        "page footer",
    ),
)
# Chrome lines are short; a longer line is text (and no pattern scans it).
_CHROME_MAX_CHARS = 600
_DIFF_VIEW = re.compile(r":\s*(?:verschil tussen versies|difference between revisions)\s*$", re.IGNORECASE)


def is_diff_view(title: str) -> bool:
    """Whether a title line is that of MediaWiki's comparison of two versions of a page."""
    return bool(_DIFF_VIEW.search(title))


def chrome(lines: list[str]) -> dict[int, str]:
    """The lines (by index; ``lines[0]`` is the title) that are the wiki's own, each with why."""
    found: dict[int, str] = {}
    first = True
    for i in range(1, len(lines)):
        line = lines[i]
        if not line:
            continue
        reason = None
        if len(line) <= _CHROME_MAX_CHARS:
            reason = "the wiki's tagline" if first and _TAGLINE.match(line) else _match(_HEAD, line)
        if reason is None:
            break
        found[i] = reason
        first = False
    for i in range(len(lines) - 1, 0, -1):
        line = lines[i]
        if not line:
            continue
        if i in found or len(line) > _CHROME_MAX_CHARS:
            break
        reason = _match(_TAIL, line)
        if reason is None:
            break
        found[i] = reason
    return found


def _match(patterns: tuple[tuple[re.Pattern[str], str], ...], line: str) -> str | None:
    for pattern, reason in patterns:
        if pattern.search(line):
            return reason
    return None
