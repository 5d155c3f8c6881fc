"""The minutes a committee circulates: GitHub-flavoured Markdown and Word (``review export``).

The Markdown is rendered here as GitHub would (markdown-it-py's ``gfm-like``, autolinks on): no link,
image, emphasis, code or HTML comes from law text or a comment, every word of them reads back, and
the difference's struck and bold words rebuild the old and the new wording.  The Word minutes are read
back with lxml: struck runs and underlined runs rebuild the two wordings, in article order, with the
flags.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from lawdiff.cli import main
from lawdiff.diff import word_diff
from lawdiff.review.minutes import difference, escape

markdown_it = pytest.importorskip("markdown_it")

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# Law text and comments as hostile as Markdown allows: every markup character, at a line's start too.
HOSTILE = (
    "See [here](https://evil.example) and ![img](x.png), *this* _that_ ~~gone~~ `code` <b>&amp;</b> | a | b |\n"
    "# heading\n- item\n+ item\n> quote\n1. first\n2) second\n!important www.evil.com a@b.co \\ end"
)


def render(md: str) -> str:
    return str(markdown_it.MarkdownIt("gfm-like").render(md))


def _text(fragment: str) -> str:
    return " ".join(lxml_html.fragment_fromstring(fragment, create_parent="div").text_content().split())


def _inert(fragment: str) -> None:
    root = lxml_html.fragment_fromstring(fragment, create_parent="div")
    found = [e.tag for e in root.iter() if e.tag in ("a", "img", "em", "code", "b", "h1", "ul", "ol", "blockquote")]
    assert not found, (found, fragment)


def test_law_text_and_comments_stay_text_and_keep_their_words() -> None:
    out = render(f"- comment: {escape(HOSTILE)}")
    root = lxml_html.fragment_fromstring(out, create_parent="div")
    (li,) = root.iter("li")
    assert not [e.tag for e in li.iter() if e.tag != "li"], out  # no link, image, emphasis, code or HTML
    assert " ".join(li.text_content().split()) == "comment: " + " ".join(HOSTILE.replace("\n", " / ").split())


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab c*_~`[]()<>|&!#-+.:/@\\1\n")), max_size=40))
def test_any_text_is_inert_and_round_trips(text: str) -> None:
    out = render(f"x {escape(text)}")
    _inert(out)
    assert _text(out) == " ".join(f"x {text.replace(chr(10), ' / ')}".split())


def _sides(fragment: str) -> tuple[str, str]:
    """The old wording (struck and kept words) and the new one (bold and kept words) of a rendered difference."""
    old = lxml_html.fragment_fromstring(fragment, create_parent="div")
    new = lxml_html.fragment_fromstring(fragment, create_parent="div")
    for e in list(old.iter("strong")):
        e.drop_tree()
    for e in list(new.iter("s", "del")):
        e.drop_tree()
    return " ".join(old.text_content().split()), " ".join(new.text_content().split())


WORDS = st.text(alphabet=st.sampled_from(list("abc ,.()*_[]<>16")), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(WORDS, WORDS)
def test_a_difference_rebuilds_both_wordings(old: str, new: str) -> None:
    out = render(difference(word_diff(old, new)))
    struck_or_bold = {e.tag for e in lxml_html.fragment_fromstring(out, create_parent="div").iter()}
    assert struck_or_bold <= {"div", "p", "s", "del", "strong"}, out
    assert _sides(out) == (" ".join(old.split()), " ".join(new.split()))


@pytest.fixture
def store(tmp_path: Path) -> dict[str, str]:
    env = {"LAWDIFF_REVIEW": str(tmp_path / "review.sqlite"), "LAWDIFF_AUTHOR": "Anne"}
    for args in (
        ["meeting", "start", "--date", "2024-05-14", "--attendees", "Anne, Bert"],
        ["set", "2017:45D2", "translation-fix"],
        ["set", "2017:45C4(b)", "accepted", "--comment", HOSTILE + "\u202e"],
        ["set", "2017:45C1", "query"],
        ["meeting", "end"],
    ):
        result = CliRunner().invoke(main, ["review", *args], env=env)
        assert result.exit_code == 0, result.output
    return env


def test_markdown_minutes_render_as_minutes(store: dict[str, str]) -> None:
    md = CliRunner().invoke(main, ["review", "export", "--format", "md"], env=store).stdout
    out = render(md)
    root = lxml_html.fragment_fromstring(out, create_parent="div")
    assert [" ".join(h.text_content().split()) for h in root.iter("h4")] == [
        "45C1: query",
        "45C4(b): accepted",
        "45D2 (added): translation-fix",
    ], "article order"
    assert not list(root.iter("a")) and not list(root.iter("img")) and not list(root.iter("em"))
    items = [" ".join(li.text_content().split()) for li in root.iter("li")]
    assert "flags: modal +mag; negation −zonder +niet; actor −partner −speler +leider +blinde +blinde;" in " ".join(
        items
    )
    comment = next(i for i in items if i.startswith("Anne, "))
    # The hidden override is shown as its escape, and every other word is as written.
    assert comment.endswith(" ".join(HOSTILE.replace("\n", " / ").split()) + "\\u202e")
    (diff,) = [li for li in root.iter("li") if li.text_content().startswith("difference: Tot zijn partner")]
    old, new = _sides(etree.tostring(diff, encoding="unicode"))
    assert old.startswith("difference: Tot zijn partner") and new.startswith("difference: De leider mag een")


def test_word_minutes_strike_and_underline_in_article_order(store: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "minutes.docx"
    result = CliRunner().invoke(main, ["review", "export", "--format", "docx", "-o", str(out)], env=store)
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as z:
        body = etree.fromstring(z.read("word/document.xml"))
    paras = []
    for p in body.iter(f"{W}p"):
        style = p.find(f"{W}pPr/{W}pStyle")
        runs = []
        for r in p.iter(f"{W}r"):
            rpr = r.find(f"{W}rPr")
            op = (
                "del"
                if rpr is not None and rpr.find(f"{W}strike") is not None
                else "ins"
                if rpr is not None and rpr.find(f"{W}u") is not None
                else ""
            )
            runs.append((op, "".join(t.text or "" for t in r.iter(f"{W}t"))))
        paras.append((style.get(f"{W}val") if style is not None else "", runs))
    headings = ["".join(t for _, t in runs) for style, runs in paras if style == "Heading3"]
    assert headings == ["45C1: query", "45C4(b): accepted", "45D2 (added): translation-fix"]
    texts = ["".join(t for _, t in runs) for _, runs in paras]
    assert any(t.startswith("Flags: modal +mag; negation −zonder +niet") for t in texts)
    (diff,) = [
        runs for _, runs in paras if runs and runs[0][1] == "Difference: " and "16C1" in "".join(t for _, t in runs)
    ]
    old = "".join(t for op, t in diff[1:] if op != "ins")
    new = "".join(t for op, t in diff[1:] if op != "del")
    assert old.startswith("Tot zijn partner") and old.endswith("(zie artikel 47D en 16D1).")
    assert new.startswith("De leider mag een") and new.endswith("(zie artikel 47D en 16C1).")
    comment = next(t for t in texts if t.startswith("Anne, "))
    assert comment.endswith("\\u202e") and "[here](https://evil.example)" in comment
    assert texts[0] == "Committee review: decisions"  # every decision: no --meeting


@pytest.mark.parametrize("text", ["a.ba", "zie nl.wikipedia", "1.ab", "i.v.m. de regel"])
def test_a_bare_domain_stays_text(text: str) -> None:
    # Found by the property above: linkify reads "a.ba" as a link to http://a.ba (GitHub itself would not).
    out = render(difference(word_diff("1", text)))
    assert "<a " not in out and _sides(out)[1] == text
