"""Reader for Nuxt Content ``_payload.json`` dumps (the 2017 site).

The payload is devalue-encoded (see :mod:`lawdiff.sources.nuxt.devalue`).  Its
``data`` holds ``navigation_docs`` (the site's table of contents), the page
record, and the page's neighbours (``...-surround``, ignored).  The page
record's ``body`` is minimark: ``{"type": "minimark", "value": [node...]}``
where a node is a string or ``[tag, attributes, *children]``.

How the body becomes blocks:

* ``<p><span id="artikel-45-c"></span></p>`` anchors section C; the ``h2``
  after it (``C. Kaart beschouwd als gespeeld``) gives its label and title;
* ``p`` is a paragraph; ``ol/li`` are numbered subsections (``1.``...), and
  ``(a)``/``(b)`` items written inline in an ``li``, each after a newline,
  are split off as items;
* ``a href="/spelen/...artikel-45#artikel-45-e"`` is a link to ``45E``;
* ``sup > a href="#user-content-fn-..."`` is a footnote marker, and
  ``section.footnotes`` holds the notes (its "Footnotes" heading and the
  ``↩`` back links are site furniture, not law text).

Modules: ``devalue`` (the payload encoding), ``payload`` (the page record,
metadata, table of contents), ``minimark`` (the body).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawdiff.sources.base import Page

# The reader's modules are imported when a payload is read: a run of wiki
# pages never loads them.
FORMAT = "nuxt-payload"

__all__ = ["FORMAT", "href_address", "looks_like", "parse_date", "read"]


def looks_like(text: str) -> bool:
    """Whether text looks like a devalue payload (a JSON array; a JSON object is refused by the reader)."""
    return text.lstrip("\ufeff \t\r\n")[:1] in ("[", "{")


def read(text: str, file: str, edition_hint: str = "") -> list[Page]:
    """Read one payload (see :mod:`lawdiff.sources.nuxt.payload`)."""
    from lawdiff.sources.nuxt.payload import read as read_payload

    return read_payload(text, file, edition_hint)


def href_address(href: str) -> str:
    """The clause address a site link points at (see :mod:`lawdiff.sources.nuxt.minimark`)."""
    from lawdiff.sources.nuxt.minimark import href_address as address

    return address(href)


def parse_date(value: object) -> str:
    """An ISO date from a payload's date value (see :mod:`lawdiff.sources.nuxt.payload`)."""
    from lawdiff.sources.nuxt.payload import parse_date as parse

    return parse(value)
