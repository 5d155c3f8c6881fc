"""What the MediaWiki reader notes on a page, in words for ``check`` and ``show``.

A page of an export holds more than the wiki shows as law text, and sometimes less: a table, an image,
a transclusion of a page the dump lacks, a second ``<text>`` in a revision, an entity the XML does not
declare.  The reader reads on and says so, on the nearest clause or the page.  Each note is a
:class:`~lawdiff.i18n.said.Said`: English as before, said in the reader's language where shown.
"""

from __future__ import annotations

from lawdiff.i18n import N_
from lawdiff.i18n.said import Said

# Translators: a reader's note: the page holds a wiki table, whose cells are read as lines of text.
TABLE = Said(N_("a table: read one cell per line"))
# Translators: why words of a MediaWiki export were not read ("{why}: 12 word(s) of {title} not read").
SECOND_TEXT = Said(N_("a second <text> in the revision (the schema allows one; the first is read)"))


def joined_heading(line: int, heading: str) -> Said:
    """A heading the wiki joins to the paragraph before it (a single line break before it)."""
    return Said(
        N_(
            "line {line}: the heading {heading!r} follows a single line break, so the wiki joins it to"
            " the paragraph before it (and so does lawdiff); a blank line before it would make it a heading"
        ),
        line=line,
        heading=heading,
    )


def image(name: str) -> Said:
    """An image the page shows, not read."""
    return Said(N_("image {name} not read (not law text)"), name=name)


def missing_page(page: str) -> Said:
    """A transclusion of a page the dump does not hold."""
    return Said(N_("transclusion of {page}: the dump has no such page, its text is missing here"), page=page)


def contents_not_expanded(title: str) -> Said:
    """A transclusion of a table of contents, left out."""
    return Said(N_("{title} not expanded here (table of contents)"), title=title)


def not_read(why: str, words: int, title: str) -> Said:
    """``words`` words of the page ``title`` that the reader did not read, and why."""
    return Said(N_("{why}: {n} word(s) of {title} not read"), why=why, n=words, title=title)


def text_outside_revisions(element: str) -> Said:
    """A ``<text>`` inside ``element``, outside the page's revisions."""
    return Said(N_("a <text> inside <{element}>, outside the page's revisions"), element=element)


def slot_text(role: str) -> Said:
    """The ``<text>`` of a revision's slot other than the main one."""
    return Said(N_("the <text> of the revision's {role!r} slot (only the main slot is read)"), role=role)


def text_where_none(element: str) -> Said:
    """A ``<text>`` inside ``element``, where the export's schema has none."""
    return Said(N_("a <text> inside <{element}>, where the export's schema has none"), element=element)


def undeclared_entity(entity: str) -> Said:
    """An entity the XML does not declare, read as written."""
    return Said(
        N_("the XML does not declare the entity {entity}: read as written (the wiki shows the character)"),
        entity=entity,
    )
