"""The report's row templates (``lawdiff/report/html/template.py``): every value escaped by construction."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from lawdiff import marks
from lawdiff.errors import LawdiffBug
from lawdiff.report.html.markup import BlockMarkup, Markup, Splices, h
from lawdiff.report.html.template import Template, join

ROW = Template('<tr class="{cls}" id="{ident}"><td title="{title}">{text}</td><td>{more}</td></tr>', block=True)
HOSTILE = ('<script>alert("x")</script>', "A & B", 'a "quoted" <b>', "]]> --> <!--", "\u202eevil", "x\x1by")


@pytest.mark.parametrize("text", HOSTILE)
def test_every_hole_escapes_law_text_in_text_and_attributes(text: str) -> None:
    made = ROW(cls="rel " + text, ident=text, title=text, text=text, more=[text, None, (text,)])
    assert isinstance(made, BlockMarkup)
    # The same escaping as the builder's: the row's start tag is the one h() makes of the same attributes.
    assert made.startswith(h("tr", {"class": "rel " + text, "id": text})[:-5])
    row = lxml_html.fragment_fromstring(f"<table>{made}</table>").find(".//tr")
    assert row is not None
    # Nothing but the template's elements, and the marks of hidden characters (lawdiff.marks).
    extra = [e for e in row.iter() if e.tag not in ("tr", "td")]
    assert all(e.tag == "bdi" or (e.tag == "span" and e.get("class") == "hc") for e in extra), made
    shown = re.sub("[\u202e\x1b]", "", text)
    assert row[0].text_content().replace("U+202E RLO", "").replace("U+001B ESC", "") == shown
    assert row.get("id") == row[0].get("title") == marks.escape(text)


def test_script_and_ampersand_in_law_text_stay_text_through_the_pages_renderers() -> None:
    from lawdiff.diff import Op
    from lawdiff.report.html.law import law_text

    out = law_text("tx", [(Op.EQUAL, "<script>x</script> & "), (Op.INSERT, "<b>&amp;</b>")])
    block = lxml_html.fragment_fromstring(out)
    assert block.text_content() == "<script>x</script> & <b>&amp;</b>"
    assert [e.tag for e in block.iter()] == ["div", "ins"]


def test_an_attribute_that_is_a_whole_hole_is_left_out_for_nothing() -> None:
    assert ROW(cls="", ident=None, title="", text="t", more=None) == "<tr><td>t</td><td></td></tr>"
    assert ROW(cls="c", ident=False, title="x", text=None, more="") == '<tr class="c"><td title="x"></td><td></td></tr>'
    # A hole that is part of a value always writes it.
    assert Template('<a href="#{x}">.</a>')(x="") == '<a href="#">.</a>'


def test_markup_passes_and_a_plain_string_never_does() -> None:
    bold = h("b", None, "x")
    assert ROW(cls="", ident=None, title="", text=bold, more="<b>x</b>").endswith(
        "<td><b>x</b></td><td>&lt;b&gt;x&lt;/b&gt;</td></tr>"
    )
    # In an attribute even markup is a value, escaped.
    assert 'title="&lt;b&gt;x&lt;/b&gt;"' in ROW(cls="", ident=None, title=bold, text="", more="")
    assert join(["<i>", bold]) == "&lt;i&gt;<b>x</b>" and type(join([])) is Markup


@pytest.mark.parametrize(
    "source",
    [
        "<div {x}>",  # a hole in a tag, outside a value
        "<div class={x}>",  # an unquoted value
        "<div title='{x}'>",  # single quotes
        "<script>{x}</script>",  # raw text: not escaped as text
        "<style>{x}</style>",
        "<title>{x}</title>",
        "<!-- {x} -->",  # a comment
        "a > {x}",  # a '>' in text
        '<div class="{x}"',  # ends inside a tag
        "<p>{class}</p>",  # a name Python reserves
    ],
)
def test_a_template_that_could_read_a_value_as_markup_is_refused_when_it_is_made(source: str) -> None:
    with pytest.raises(LawdiffBug):
        Template(source)


def test_a_template_is_filled_with_exactly_its_holes_and_text_takes_text() -> None:
    with pytest.raises(LawdiffBug, match="holes are"):
        ROW(cls="", ident=None, title="", text="")
    with pytest.raises(LawdiffBug, match="holes are"):
        ROW(cls="", ident=None, title="", text="", more="", other="")
    with pytest.raises(LawdiffBug, match="takes text"):
        ROW(cls="", ident=None, title="", text=3, more="")  # type: ignore[arg-type]
    with pytest.raises(LawdiffBug, match="takes a string"):
        Template('<a href="#{x}">.</a>')(x=None)
    # A hole may stand in several places, filled with one value.
    twice = Template('<a href="#{id_}" id="{id_}">{id_}</a>')
    assert twice(id_="x&y") == '<a href="#x&amp;y" id="x&amp;y">x&amp;y</a>'


def test_rows_spliced_into_a_page_as_it_is_written_are_the_rows_built_in_place() -> None:
    rows = [ROW(cls="r", ident=f"i{i}", title="t", text=f"<{i}> & more", more=None) for i in range(5)]
    in_place = h("div", None, h("table", None, h("tbody", None, rows)), h("table", None, h("tbody", None, rows[:1])))
    held = Splices()
    page = h(
        "div",
        None,
        h("table", None, h("tbody", None, held.hold(rows))),
        h("table", None, h("tbody", None, held.hold(rows[:1]))),
    )
    pieces = held.pieces(page)
    assert "".join(pieces) == in_place and len(pieces) > 2 * len(rows)
    with pytest.raises(LawdiffBug):
        held.hold([])  # an empty body has no line break in it: it is written as it is, not held
    with pytest.raises(LawdiffBug):
        held.hold([Markup("<b>x</b>")])  # only block elements, which the builder puts a line break after
