"""The report's row templates (``lawdiff/report/html/template.py``): every value escaped by construction."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from lawdiff import marks
from lawdiff.errors import LawdiffBug
from lawdiff.report.html.markup import TEXT_SPECIAL, BlockMarkup, Markup, Splices, h, plain
from lawdiff.report.html.template import Template, compile_all, each_in, join

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


def test_held_text_spliced_in_is_the_text_built_in_place_in_whatever_order_the_page_has_it() -> None:
    rows = [ROW(cls="r", ident=f"i{i}", title="t", text=f"<{i}>", more=None) for i in range(2)]
    texts = [join(["a & b ", h("ins", None, "c")]), join(["d"])]
    in_place = h("div", None, h("p", None, texts[1]), h("table", None, h("tbody", None, rows)), h("p", None, texts[0]))
    held = Splices()
    # Held first, standing last: the old clauses of a merge are made before the new one they stand beside.
    late = held.hold_text(texts[0])
    page = h(
        "div",
        None,
        h("p", None, held.hold_text(texts[1])),
        h("table", None, h("tbody", None, held.hold(rows))),
        h("p", None, late),
    )
    assert "".join(held.pieces(page)) == in_place
    with pytest.raises(LawdiffBug):
        held.pieces(page.replace("<!--text 0-->", ""))  # a placeholder lost is a bug, not a page without it
    with pytest.raises(LawdiffBug):
        held.pieces(page + "<!--text 1-->")  # and so is one that stands twice
    with pytest.raises(LawdiffBug):
        held.hold_text(BlockMarkup("<div>x</div>"))  # a block is held as a row, with its line breaks


@pytest.mark.parametrize(
    "texts",
    [
        ["Elke speler ", "moet", " een kaart ", ",", " spelen."],
        [*HOSTILE, "plain", "&"],
        # Long enough to be scanned as bytes: one-byte text, with and without what needs escaping, and wider.
        ["é" * 5000, "plain " * 1000, ","],
        ["x" * 5000, "<b>", "\x85", "y"],
        ["‘quoted’ " * 1000, "\u202e", "z"],
    ],
)
def test_texts_written_in_turn_are_the_filled_templates_one_after_the_other(texts: list[str]) -> None:
    ins, punct = Template("<ins>{text}</ins>"), Template('<del class="pu">{t}</del>')
    pieces = [(None if i % 3 == 0 else ins if i % 3 == 1 else punct, t) for i, t in enumerate(texts)]
    filled = join([t if template is None else template(**dict.fromkeys(template.names, t)) for template, t in pieces])
    assert each_in(pieces) == filled and type(each_in(pieces)) is Markup
    with pytest.raises(LawdiffBug):
        each_in([(ROW, "x")])  # a template of more than one hole takes more than a text


def test_plain_text_is_what_holds_no_character_to_escape() -> None:
    for n in range(256):
        for text in (chr(n), "x" * 5000 + chr(n)):
            assert plain(text) is (TEXT_SPECIAL.search(text) is None), hex(n)
    for text in ("‘a’ " * 2000, "‘a’ " * 2000 + "\u2066", "a" * 5000 + "\ufffe", "a" * 5000 + "\U0001f600"):
        assert plain(text) is (TEXT_SPECIAL.search(text) is None), text[-3:]


def test_a_template_is_compiled_at_its_first_fill_and_fills_the_same_from_then_on() -> None:
    fresh = Template('<p class="{cls}">{text}</p>')
    with pytest.raises(LawdiffBug):
        fresh(cls="x")  # a hole left out, at the first fill as at any other
    first = fresh(cls='a"b', text="<b> & c")
    assert first == fresh(cls='a"b', text="<b> & c") == '<p class="a&quot;b">&lt;b&gt; &amp; c</p>'
    # From its first fill on, the template's call is its compiled function, with no step between.
    assert type(fresh).__dict__["__call__"].__func__ is fresh.compiled()
    # The same holes in the same places: one code compiled, for two templates of their own literals.
    twin = Template('<div class="{cls}">{text}</div>')
    compile_all()
    assert twin.compiled().__code__ is fresh.compiled().__code__
    assert twin(cls="c", text="d") == '<div class="c">d</div>'
