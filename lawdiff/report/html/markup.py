"""Building markup: elements, documents, the page head and footer."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from importlib import resources

from lxml import etree

from lawdiff import __version__
from lawdiff.align import Thresholds

Element = etree._Element
Child = Element | str | None | Iterable["Child"]
Progress = Callable[[int, int], None]



ASSETS = ("report.css", "report.js")
GENERATOR = f"lawdiff {__version__}"

# ---------------------------------------------------------------------------
# Building markup

# Characters XML (and so lxml) refuses; a source could hold them, and a
# report must still be written: they show as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


def el(tag: str, attrs: Mapping[str, str] | None = None, *children: Child) -> Element:
    """An element with attributes and children (strings become text, None is skipped)."""
    e = etree.Element(tag, {key: _clean(value) for key, value in attrs.items()}) if attrs else etree.Element(tag)
    if children:
        add(e, *children)
    return e


def _section(sid: str, heading: list[Child], cls: str | None, *content: Child) -> Element:
    """A ``<section>`` labelled by its ``<h2>`` (ids ``sid`` and ``sid-h``)."""
    attrs = {"class": cls} if cls else {}
    attrs.update({"id": sid, "aria-labelledby": f"{sid}-h"})
    return el("section", attrs, el("h2", {"id": f"{sid}-h"}, *heading), *content)


def add(parent: Element, *children: Child) -> Element:
    for child in children:
        if child is None:
            continue
        if isinstance(child, str):
            if not child:
                continue
            if len(parent):
                last = parent[-1]
                last.tail = (last.tail or "") + _clean(child)
            else:
                parent.text = (parent.text or "") + _clean(child)
        elif isinstance(child, etree._Element):
            parent.append(child)
        else:
            add(parent, *child)
    return parent


# Block elements get a line break after them, so that the files diff well;
# never inside law text, where white space is shown as printed.
_BLOCKS = frozenset(
    (
        *("html", "head", "body", "meta", "link", "title", "script", "style", "header", "nav", "main", "footer"),
        *("section", "article", "div", "p", "h1", "h2", "h3", "h4", "table", "caption", "colgroup", "col"),
        *("thead", "tbody", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd", "details", "summary", "label"),
    )
)
_LAW = "lt"


def _breaks(e: Element) -> None:
    classes = (e.get("class") or "").split()
    if _LAW in classes or e.tag in ("script", "style", "summary", "h1", "h2", "h3", "h4", "li", "th", "dt", "dd"):
        return
    if len(e) and e[0].tag in _BLOCKS and not (e.text or "").strip():
        e.text = "\n"
    for child in e:
        if child.tag in _BLOCKS and not (child.tail or "").strip() and e.tag not in ("p", "label"):
            child.tail = "\n"
        _breaks(child)


def serialize(root: Element) -> str:
    _breaks(root)
    return etree.tostring(root, method="html", encoding="unicode", doctype="<!DOCTYPE html>") + "\n"


def _asset(name: str) -> str:
    return (resources.files("lawdiff.report") / "assets" / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _head(title: str, root: str, inline: bool) -> Element:
    """``<head>``: charset, viewport, a strict CSP, the stylesheet and the script."""
    head = el("head")
    add(head, el("meta", {"charset": "utf-8"}))
    add(head, el("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}))
    if inline:
        css, js = _asset("report.css"), _asset("report.js")
        policy = (
            f"default-src 'none'; style-src '{_sha256(css)}'; script-src '{_sha256(js)}'; "
            "img-src data:; base-uri 'none'; form-action 'none'"
        )
    else:
        policy = (
            "default-src 'none'; style-src 'self' file:; script-src 'self' file:; "
            "img-src 'self' file: data:; base-uri 'none'; form-action 'none'"
        )
    add(head, el("meta", {"http-equiv": "Content-Security-Policy", "content": policy}))
    add(head, el("meta", {"name": "generator", "content": GENERATOR}))
    add(head, el("meta", {"name": "color-scheme", "content": "light"}))
    add(head, el("title", None, title))
    if inline:
        # The script goes at the end of the body (an inline script cannot be deferred).
        add(head, el("style", None, css))
    else:
        add(
            head,
            el("link", {"rel": "stylesheet", "href": f"{root}assets/report.css"}),
            el("script", {"src": f"{root}assets/report.js", "defer": "defer"}),
        )
    return head


def _document(title: str, root: str, body: Element, inline: bool = False) -> str:
    html = el("html", {"lang": "en"}, _head(title, root, inline), body)
    if inline:
        add(body, el("script", None, _asset("report.js")))
    return serialize(html)


def _footer(thresholds: Thresholds) -> Element:
    values = ", ".join(f"{k} {v:g}" for k, v in thresholds.as_dict().items())
    return el(
        "footer",
        {"class": "site-footer"},
        el("p", None, f"Made by {GENERATOR}. Law text is shown as read from the sources, never translated or altered."),
        el("p", {"class": "thresholds"}, f"Alignment thresholds: {values}."),
    )
