"""Building markup: HTML by construction, the page head and footer.

:func:`h` builds an element as a string of HTML, children first: every plain
``str`` it is given is escaped, as text or as an attribute value, so law text
holding ``<script>``, ``&`` or quotes is always text.  What :func:`h` returns
is :class:`Markup`, the one kind of string that passes through unescaped.  A
``Markup`` is made by this module's :func:`h` and :func:`raw_text`, or from a
string constant written in the code; nothing else may turn a ``str`` into
markup (``tests/test_html.py`` reads the renderers' source to hold them to
that), and every operation on a ``Markup`` other than passing it to :func:`h`
gives back a plain ``str``, which is escaped again.

Building strings instead of an lxml tree makes the report several times
faster to render (a tree of half a million elements was built, walked for
line breaks and serialized); the output is the same HTML.

The words around the law are the interface's (:mod:`lawdiff.i18n`): a page's
``<html lang>`` is its language, and a sentence of the catalog with markup in
its fields is written by :func:`phrase`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources

from lawdiff import __version__, i18n, marks
from lawdiff.align import Thresholds
from lawdiff.errors import LawdiffBug
from lawdiff.i18n import gettext as _
from lawdiff.i18n import pgettext, terms
from lawdiff.model import Edition
from lawdiff.report.text import number


class Markup(str):
    """A string of HTML that is safe as it stands.

    Made only by this module's builder, or from a string constant in the code
    (``Markup("<br>")``); never from text read from a source.
    """

    __slots__ = ()

    def __html__(self) -> Markup:  # the protocol of markupsafe and Jinja
        return self


class BlockMarkup(Markup):
    """Markup of a block element: a line break follows it (see :func:`h`)."""

    __slots__ = ()


Child = str | None | Iterable["Child"]
Attrs = Mapping[str, str | bool | None]

ASSETS = ("report.css", "report.js")
GENERATOR = f"lawdiff {__version__}"


def made_by(*editions: Edition) -> str:
    """The running foot of a printed table: what made it, and the editions it shows by the first 16
    digits of their SHA-256 (as the page's footer has them), so that every printed page says what it
    was made from."""
    said = _("Made by {generator}: law text as read from the sources, never altered. Editions read: {editions}.")
    return said.format(generator=GENERATOR, editions=", ".join(f"{e.name} {e.digest()[:16]}" for e in editions))


# ---------------------------------------------------------------------------
# Escaping

# Characters XML and HTML cannot hold; a source could hold them, and a
# report must still be written: they show as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# What a text child (TEXT_SPECIAL) or an attribute value (ATTR_SPECIAL) cannot hold as it is: markup characters,
# what XML refuses, and the characters a
# reader cannot see (:data:`lawdiff.marks.HIDDEN`: controls, bidirectional marks and overrides).
TEXT_SPECIAL = re.compile(f"[&<>\ufffe\uffff{marks.HIDDEN.pattern[1:-1]}]")
ATTR_SPECIAL = re.compile(f'[&<>"\ufffe\uffff{marks.HIDDEN.pattern[1:-1]}]')


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


# The characters of one byte (U+0000-U+00FF) that text holds as they are: none of TEXT_SPECIAL.
_PLAIN_BYTES = bytes(b for b in range(256) if TEXT_SPECIAL.match(chr(b)) is None)
# From this length a text of one-byte characters is scanned as bytes (below it, the search costs less).
_SCAN_AS_BYTES = 4096


def plain(text: str) -> bool:
    """Whether ``text`` holds nothing that :func:`text_child` escapes or marks (no :data:`TEXT_SPECIAL`).

    A long text of one-byte characters (most law text, and a 5 MB clause) is checked by deleting the
    plain bytes from its Latin-1 bytes, a loop in C some eight times faster than the search of the
    regular expression; other text by that search.
    """
    if len(text) >= _SCAN_AS_BYTES:
        try:
            return not text.encode("latin-1").translate(None, _PLAIN_BYTES)
        except UnicodeEncodeError:
            pass
    return TEXT_SPECIAL.search(text) is None


def escape(text: str) -> str:
    """``text`` as HTML text: ``&``, ``<``, ``>`` escaped, characters HTML cannot hold as U+FFFD."""
    if TEXT_SPECIAL.search(text) is None:  # most law text: one scan, no copy
        return text
    return _clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attribute(value: str) -> str:
    """``value`` for a double-quoted attribute: ``"`` escaped as well, and a hidden character written
    as its escape (``\\u202e``: an attribute holds no markup to draw a mark with)."""
    if ATTR_SPECIAL.search(value) is None:
        return value
    return escape(marks.escape(value)).replace('"', "&quot;")


def text_html(text: str) -> str:
    """A text child as HTML: escaped, and where it holds characters a reader cannot see (a bidirectional
    override, a control), isolated in a ``<bdi>`` with each such character drawn as a visible mark
    naming it (``U+202E RLO``, :func:`lawdiff.marks.label`) instead of acting on the text around it.
    The text itself is not changed anywhere but in this drawing of it."""
    if not marks.has_hidden(text):
        return escape(text)
    out = ["<bdi>"]
    for run, hidden in marks.runs(text):
        if hidden:
            name = marks.label(run)
            title = escape_attribute(_("{name}: a character that shows nothing").format(name=name))
            out.append(f'<span class="hc" title="{title}">{name}</span>')
        else:
            out.append(escape(run))
    out.append("</bdi>")
    return "".join(out)


def text_child(text: str) -> str:
    """A text child as HTML (:func:`text_html`), at the cost of one scan where there is nothing to escape."""
    return text if TEXT_SPECIAL.search(text) is None else text_html(text)


# ---------------------------------------------------------------------------
# Elements

# Elements without an end tag.
_VOID = frozenset(("meta", "link", "col", "br", "img", "input", "hr", "wbr"))
# Block elements get a line break after them, so that the files diff well.
_BLOCKS = frozenset(
    (
        *("html", "head", "body", "meta", "link", "title", "script", "style", "header", "nav", "main", "footer"),
        *("section", "article", "div", "p", "h1", "h2", "h3", "h4", "table", "caption", "colgroup", "col"),
        *("thead", "tfoot", "tbody", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd", "details", "summary"),
        "label",
    )
)
# No line break is added inside these (a heading, an item, a cell head read
# as one line), nor inside law text (class ``lt``), where white space is shown
# as printed.
_NO_BREAKS = frozenset(("script", "style", "summary", "h1", "h2", "h3", "h4", "li", "th", "dt", "dd"))
# Phrasing containers: a break before a first block child, none after each.
_PHRASING = frozenset(("p", "label"))
LAW = "lt"  # the class of a block of law text

_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")
_names: set[str] = set()


def _name(name: str) -> str:
    """A tag or attribute name, checked once: names are constants of the code, never data."""
    if name not in _names:
        if not _NAME.match(name):
            raise LawdiffBug(f"{name!r} is not an HTML name the report uses")
        _names.add(name)
    return name


class _Tag:
    """What the builder needs to know of a tag, worked out once per tag."""

    __slots__ = ("block", "breaks", "end", "phrasing", "start", "void")

    def __init__(self, tag: str) -> None:
        self.start = f"<{_name(tag)}>"
        self.end = f"</{tag}>"
        self.void = tag in _VOID
        self.block = tag in _BLOCKS
        self.breaks = tag not in _NO_BREAKS
        self.phrasing = tag in _PHRASING


_TAGS: dict[str, _Tag] = {}


def _start(tag: str, attrs: Attrs) -> str:
    out = f"<{tag}"
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        if key not in _names:
            _name(key)
        if value is True:
            out += f" {key}"
        elif ATTR_SPECIAL.search(value) is None:
            out += f' {key}="{value}"'
        else:
            out += f' {key}="{escape_attribute(value)}"'
    return out + ">"


def _flatten(children: Iterable[Child], out: list[Child]) -> list[Child]:
    for child in children:
        if child is None or isinstance(child, str):
            out.append(child)
        else:
            _flatten(child, out)
    return out


def h(tag: str, attrs: Attrs | None = None, *children: Child) -> Markup:
    """An element: ``h("a", {"href": "#x"}, "text", h("b", None, "bold"))``.

    Attributes are escaped and quoted; an attribute whose value is None or
    False is left out, True gives the bare name (``defer``).  Children are
    plain strings (escaped as text), :class:`Markup`, None (skipped) or lists
    of children (flattened).  A void element (``meta``, ``col``, ...) has no
    end tag and takes no children.

    Line breaks, so that the files diff well: a block element child is
    followed by one, and a block first child preceded by one, except inside
    law text (class ``lt``), headings, list items, table head cells, terms,
    summaries, scripts and styles (and after the children of ``p`` and
    ``label``).
    """
    # This runs for every element of the report (some 230,000 for a corpus of
    # 93 articles in four editions): it is written for speed.
    info = _TAGS.get(tag)
    if info is None:
        info = _TAGS[tag] = _Tag(tag)
    start = _start(tag, attrs) if attrs else info.start
    if info.void:
        if children:
            raise LawdiffBug(f"<{tag}> takes no children")
        return BlockMarkup(start) if info.block else Markup(start)
    parts = [start]
    flat: Iterable[Child] = children
    for c in children:
        if c is not None and not isinstance(c, str):
            flat = _flatten(children, [])
            break
    breaks: bool | None = None  # worked out at the first block child
    blank = True  # nothing but white space so far
    for child in flat:
        kind = type(child)
        if kind is Markup:
            parts.append(child)  # type: ignore[arg-type]
            if blank and not child.isspace():  # type: ignore[union-attr]
                blank = False
        elif kind is BlockMarkup:
            if breaks is None:
                breaks = info.breaks and not (attrs and LAW in str(attrs.get("class") or "").split())
            if breaks:
                # Before a first child that is a block (nothing but blank text before it).
                if blank:
                    parts.append("\n")
                parts.append(child)  # type: ignore[arg-type]
                if not info.phrasing:
                    parts.append("\n")
            else:
                parts.append(child)  # type: ignore[arg-type]
            blank = False
        elif child:  # a plain string (None and "" add nothing)
            text: str = child  # type: ignore[assignment]
            parts.append(text if TEXT_SPECIAL.search(text) is None else text_html(text))
            if blank and not text.isspace():
                blank = False
    parts.append(info.end)
    return (BlockMarkup if info.block else Markup)("".join(parts))


class Splices:
    """Long runs of rows kept out of the elements around them while a page is built, and spliced into the
    page as it is written (the index's matrix, a correlation table's rows).

    Built inside the elements around it, a table of 744 articles was copied once per element (``tbody``,
    ``table``, ``section``, ``main``, ``body``, ``html``, the document), tens of MB made and dropped, which
    left the process that much larger to the end of the report.  Here each run stands in the page as a
    placeholder comment (:meth:`hold`; law text is escaped, so no ``<!--`` of a source can be taken for
    one), and :meth:`pieces` gives the page as its pieces with each run in its place, to be written one
    after the other: the same bytes as the rows built in place.
    """

    __slots__ = ("_runs",)

    def __init__(self) -> None:
        self._runs: dict[str, list[Markup]] = {}

    def hold(self, rows: list[Markup]) -> BlockMarkup:
        """A placeholder for ``rows``: block elements (``<tr>``), the children of one element, as :func:`h`
        would write them there (a line break before the first and after each).  Not for no rows (the
        element is then empty)."""
        if not rows or any(type(r) is not BlockMarkup for r in rows):
            raise LawdiffBug("only a run of block elements is held out of a page")
        mark = BlockMarkup(f"<!--rows {len(self._runs)}-->")
        self._runs[mark] = rows
        return mark

    def hold_text(self, text: Markup) -> Markup:
        """A placeholder for ``text``, the inside of an element written as it is (a long clause's law text
        with its differences, a 5 MB paragraph that each element around it would copy again)."""
        if type(text) is not Markup:
            raise LawdiffBug("only the markup of an element's inside is held out of a page as text")
        mark = Markup(f"<!--text {len(self._runs)}-->")
        self._runs[mark] = [text]
        return mark

    def pieces(self, page: str) -> list[str]:
        """The page with each placeholder replaced by its rows, a line break between two (the placeholder
        has one after it already), or by its text, as pieces to write one after the other.

        The placeholders are found in the order the page has them, which need not be the order they were
        made in (the old clauses of a merge are made before its new one, and stand beside it)."""
        out: list[str] = []
        at = 0
        runs = dict(self._runs)
        for m in _PLACEHOLDER.finditer(page):
            rows = runs.pop(m.group(), None)
            if rows is None:
                raise LawdiffBug(f"the placeholder {m.group()!r} stands twice in the page, or was not made here")
            out.append(page[at : m.start()])
            for i, row in enumerate(rows):
                out.extend(("\n", row) if i else (row,))
            at = m.end()
        if runs:
            raise LawdiffBug(f"the placeholder {next(iter(runs))!r} of a run of rows is not in the page")
        out.append(page[at:])
        return out


# A placeholder of :class:`Splices` (law text is escaped, so no ``<!--`` of a source is one).
_PLACEHOLDER = re.compile(r"<!--(?:rows|text) \d+-->")


@functools.cache
def span(cls: str, text: str) -> Markup:
    """``<span class="cls">text</span>``, made once: a badge or a flag, the same on thousands of rows.

    Only for the code's own words (kinds of change, flag names): a cache of
    law text would keep it all alive.
    """
    return h("span", {"class": cls}, text)


def raw_text(tag: str, text: str) -> Markup:
    """A ``<style>`` or ``<script>`` holding ``text`` as it is: one of the package's own assets.

    The content of these elements is not parsed as HTML, so it cannot be
    escaped; it must only never close its element early.
    """
    if tag not in ("style", "script"):
        raise LawdiffBug(f"<{tag}> is not a raw text element")
    if re.search(f"</{tag}", text, re.IGNORECASE) or "<!--" in text:
        raise LawdiffBug(f"an inline <{tag}> would end early")
    return BlockMarkup(f"<{tag}>{text}</{tag}>")


_FIELD = re.compile(r"\{(\w+)\}")


def phrase(template: str, **values: Child) -> list[Child]:
    """A translated sentence with markup in its fields: ``phrase(_("Back to {link}."), link=h("a", ...))``;
    the translation may put the fields in any order.  Text around them stays text (escaped by the
    builder); a field the template does not name is left out, one it names but is not given stays as
    written."""
    out: list[Child] = []
    at = 0
    for m in _FIELD.finditer(template):
        out.append(template[at : m.start()])
        out.append(values.get(m.group(1), m.group(0)))
        at = m.end()
    out.append(template[at:])
    return [part for part in out if part != ""]


def scroll_box(label: str, content: Child) -> Markup:
    """A wide table in a box that scrolls sideways: focusable and named, so that a keyboard can scroll it."""
    return h("div", {"class": "scroll", "tabindex": "0", "role": "region", "aria-label": label}, content)


def section_markup(sid: str, heading: list[Child], cls: str | None, *content: Child) -> Markup:
    """A ``<section>`` labelled by its ``<h2>`` (ids ``sid`` and ``sid-h``)."""
    return h(
        "section",
        {"class": cls, "id": sid, "aria-labelledby": f"{sid}-h"},
        h("h2", {"id": f"{sid}-h"}, *heading),
        *content,
    )


# ---------------------------------------------------------------------------
# Pages


def asset(name: str) -> str:
    return (resources.files("lawdiff.report") / "assets" / name).read_text(encoding="utf-8")


def sha256_hex(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _head(title: str, root: str, inline: bool) -> Markup:
    """``<head>``: charset, viewport, a strict CSP, the stylesheet and the script."""
    fixed = _HEAD_FIXED.get((root, inline))
    if fixed is None:
        if len(_HEAD_FIXED) >= 16:
            _HEAD_FIXED.clear()
        fixed = _HEAD_FIXED[(root, inline)] = _head_fixed(root, inline)
    metas, assets = fixed
    return h("head", None, *metas, h("title", None, title), assets)


# What every page's head holds but its title, by the pages' root and whether the assets are inline: the same
# elements on every page.
_HEAD_FIXED: dict[tuple[str, bool], tuple[list[Child], list[Child]]] = {}


def _head_fixed(root: str, inline: bool) -> tuple[list[Child], list[Child]]:
    """The elements of ``<head>`` before the title, and the assets after it."""
    if inline:
        css, js = asset("report.css"), asset("report.js")
        policy = (
            f"default-src 'none'; style-src '{sha256_hex(css)}'; script-src '{sha256_hex(js)}'; "
            "img-src data:; base-uri 'none'; form-action 'none'"
        )
        # The script goes at the end of the body (an inline script cannot be deferred).
        assets: list[Child] = [raw_text("style", css)]
    else:
        policy = (
            "default-src 'none'; style-src 'self' file:; script-src 'self' file:; "
            "img-src 'self' file: data:; base-uri 'none'; form-action 'none'"
        )
        assets = [
            h("link", {"rel": "stylesheet", "href": f"{root}assets/report.css"}),
            h("script", {"src": f"{root}assets/report.js", "defer": True}),
        ]
    metas: list[Child] = [
        h("meta", {"charset": "utf-8"}),
        h("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        h("meta", {"http-equiv": "Content-Security-Policy", "content": policy}),
        h("meta", {"name": "generator", "content": GENERATOR}),
        h("meta", {"name": "color-scheme", "content": "light"}),
    ]
    return metas, assets


def document(title: str, root: str, body_class: str, *body: Child, inline: bool = False) -> str:
    """A whole page: doctype, ``<head>`` and a ``<body>`` of class ``body_class`` holding ``body``."""
    script = raw_text("script", asset("report.js")) if inline else None
    lang = i18n.language()
    html = h(
        "html",
        {"lang": lang},
        _head(title, root, inline),
        # The first thing a keyboard reaches: past the navigation, to the page's own content.
        h(
            "body",
            {"class": body_class, "data-text": script_texts() if lang != i18n.DEFAULT else None},
            h("a", {"class": "skip", "href": "#top"}, _("Skip to the content")),
            *body,
            script,
        ),
    )
    return f"<!DOCTYPE html>\n{html}\n"


def script_texts() -> str:
    """What the report's script (``assets/report.js``) says, in the page's language: JSON in the body's
    ``data-text``.  The script's own words are the English ones; an English page carries none."""
    texts = {
        "view": _("View"),
        "onlyChanges": _("Show only changes"),
        "allRows": _("all rows"),
        "normative": _("normative changes"),
        "flag": _("flag: {flag}"),
        "review": _("review: {status}"),
        "filter": _("Filter:"),
        "keys": _("Keys"),
        "nextPrevious": _(": next / previous change"),
        "order": _("Order:"),
        "bySignificance": _("most significant first"),
        "byArticle": _("as in the article"),
        "filterArticles": _("Filter articles: number or title"),
        "filterLabel": _("Filter articles"),
        "flags": {f: terms.flag(f) for f in ("modal", "negation", "actor", "number", "reference", "condition")},
        "status": {s: terms.status(s) for s in ("open", "query", "accepted", "translation-fix", "rejected")},
        "outdated": pgettext("decision", "outdated"),
    }
    return json.dumps(texts, ensure_ascii=False, sort_keys=True)


def marks_legend() -> list[Child]:
    """How insertions and deletions look, as a lead sentence says it (index and compare pages)."""
    return phrase(
        _("Insertions are {underlined}, deletions {struck}; every change is labelled in words."),
        underlined=h("ins", None, _("underlined")),
        struck=h("del", None, _("struck through")),
    )


# The footers made, by language, thresholds and editions (name and digest): every page of a report has the
# same one, and making it (the thresholds as a dictionary, a dozen numbers formatted, eight elements) cost
# 0.4 ms a page.  A few are kept: a process serves one report or a few.
_FOOTERS: dict[tuple[str, Thresholds, tuple[tuple[str, str], ...]], Markup] = {}


def page_footer(thresholds: Thresholds, editions: Iterable[Edition]) -> Markup:
    """What made the page: lawdiff's version, the thresholds and a SHA-256 of each edition's content, so that
    two readers can tell that their reports come from the same corpus and settings."""
    listed = tuple(editions)
    key = (i18n.language(), thresholds, tuple((e.name, e.digest()) for e in listed))
    made = _FOOTERS.get(key)
    if made is None:
        if len(_FOOTERS) >= 16:
            _FOOTERS.clear()
        made = _FOOTERS[key] = _footer(thresholds, listed)
    return made


def _footer(thresholds: Thresholds, editions: tuple[Edition, ...]) -> Markup:
    values = ", ".join(f"{k} {number(v)}" for k, v in thresholds.as_dict().items())
    said = _(
        "Editions read (the first 16 digits of the SHA-256 of each edition's content, whole in the JSON of"
        " lawdiff compare): {editions}."
    )
    return h(
        "footer",
        {"class": "site-footer"},
        h(
            "p",
            None,
            _("Made by {generator}. Law text is shown as read from the sources, never translated or altered.").format(
                generator=GENERATOR
            ),
        ),
        h(
            "details",
            {"class": "thresholds"},
            h("summary", None, _("Alignment thresholds")),
            h("p", None, f"{values}."),
        ),
        h(
            "p",
            {"class": "provenance"},
            phrase(
                said,
                editions=[
                    [", " if i else "", f"{e.name} ", h("code", {"title": e.digest()}, e.digest()[:16])]
                    for i, e in enumerate(editions)
                ],
            ),
        ),
    )
