"""The paragraph styles of a Word draft: the numbering and heading a paragraph's style gives.

A paragraph's own properties (``w:numPr``, ``w:outlineLvl``) come first;
what they leave open comes from its style (``w:pStyle``) through the
style's ``w:basedOn`` chain.  A style is a heading by its name (``heading
1``, ``Kop 2``, ``Titel``...) or by an outline level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from lawdiff.sources.draft.docx_package import int_value, q

_HEADING_STYLE = re.compile(r"^(?:heading|kop|titel|title|berschrift|überschrift)\s*\d*$", re.IGNORECASE)


@dataclass
class _Style:
    name: str = ""
    based_on: str = ""
    num_id: str | None = None
    ilvl: int | None = None
    outline: int | None = None


class Styles:
    """The paragraph styles of ``word/styles.xml`` (none where ``root`` is None)."""

    def __init__(self, root: etree._Element | None) -> None:
        self.styles: dict[str, _Style] = {}
        self._style_cache: dict[str, tuple[str | None, int | None, bool]] = {}
        if root is not None:
            self._read_styles(root)

    def numbered(self) -> dict[str, str]:
        """The numbering (``w:numId``) of each style that has one, for ``w:numStyleLink``."""
        return {sid: s.num_id for sid, s in self.styles.items() if s.num_id}

    def _read_styles(self, root: etree._Element) -> None:
        for st in root.iterfind(q("style")):
            if st.get(q("type"), "paragraph") != "paragraph":
                continue
            sid = st.get(q("styleId"), "")
            s = _Style()
            if (n := st.find(q("name"))) is not None:
                s.name = n.get(q("val"), "")
            if (b := st.find(q("basedOn"))) is not None:
                s.based_on = b.get(q("val"), "")
            ppr = st.find(q("pPr"))
            if ppr is not None:
                if (num := ppr.find(q("numPr"))) is not None:
                    nid = num.find(q("numId"))
                    lvl = num.find(q("ilvl"))
                    s.num_id = nid.get(q("val"), "") if nid is not None else None
                    s.ilvl = int_value(lvl.get(q("val"))) if lvl is not None else None
                if (ol := ppr.find(q("outlineLvl"))) is not None:
                    s.outline = int_value(ol.get(q("val")))
            self.styles[sid] = s

    def _style_props(self, sid: str) -> tuple[str | None, int | None, bool]:
        """(numId, ilvl, heading) a paragraph style gives, through its basedOn chain."""
        if sid in self._style_cache:
            return self._style_cache[sid]
        num_id: str | None = None
        ilvl: int | None = None
        heading = False
        outline: int | None = None
        seen: set[str] = set()
        cur = sid
        while cur and cur not in seen and cur in self.styles:
            seen.add(cur)
            s = self.styles[cur]
            if num_id is None and s.num_id is not None:
                num_id, ilvl = s.num_id, s.ilvl
            if outline is None and s.outline is not None:
                outline = s.outline
            heading = heading or bool(_HEADING_STYLE.match(s.name.strip()))
            cur = s.based_on
        heading = heading or (outline is not None and outline < 9)
        self._style_cache[sid] = (num_id, ilvl, heading)
        return num_id, ilvl, heading

    def props(self, ppr: etree._Element | None) -> tuple[str | None, int | None, bool, str]:
        """(numId, ilvl, heading, style) of a paragraph: its own properties, else its style's."""
        style = ""
        num_id: str | None = None
        ilvl: int | None = None
        outline: int | None = None
        if ppr is not None:
            if (ps := ppr.find(q("pStyle"))) is not None:
                style = ps.get(q("val"), "")
            if (num := ppr.find(q("numPr"))) is not None:
                nid = num.find(q("numId"))
                lvl = num.find(q("ilvl"))
                num_id = nid.get(q("val")) if nid is not None else None
                ilvl = int_value(lvl.get(q("val"))) if lvl is not None else None
            if (ol := ppr.find(q("outlineLvl"))) is not None:
                outline = int_value(ol.get(q("val")))
        s_num, s_ilvl, heading = self._style_props(style) if style else (None, None, False)
        if num_id is None:
            num_id = s_num
            if ilvl is None:
                ilvl = s_ilvl
        if outline is not None:
            heading = outline < 9
        return num_id, ilvl, heading, style
