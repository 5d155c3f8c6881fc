"""The served app, the Word redline and the minutes in Dutch: each member's language, and nothing left in English.

Each member reads in their own language (two browsers at once, two languages): the language chosen
with the link on every page, kept by the session; before that, the browser's ``Accept-Language``;
else the server's own.  Then every page of the app, the redline (read back with python-docx) and
the minutes (Markdown and Word) are made in Dutch, and a message of the catalog that these surfaces
mark (:data:`SOURCES`) and that comes out in English fails the test: its English words in the page,
outside the law text (``lang="nl"``; the helpers are ``tests/untranslated.py``'s).  The messages whose
Dutch is the same word are a reviewed list (:data:`SAME_IN_DUTCH`).  The report's own pages
(``lawdiff.report.html``) are tested on their own (``tests/test_i18n_report.py``): of those, only what
the server adds (its bar, the review of each row) is looked at here.
"""

from __future__ import annotations

import io
import re
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docx as python_docx
import pytest
from lxml import etree
from lxml import html as lxml_html
from test_docx import moved_clauses
from test_serve import PAGE_45, Member, make
from untranslated import left_in_english, page_texts
from untranslated import untranslated as untranslated_in

from lawdiff import i18n
from lawdiff.diff import compare
from lawdiff.report.docx import docx

# The code of the surfaces this file tests: every message they mark must come out in Dutch.
SOURCES = (
    "lawdiff/serve/*.py",
    "lawdiff/report/redline/*.py",
    "lawdiff/report/docx.py",
    "lawdiff/report/wordml.py",
    "lawdiff/report/minutes.py",
    "lawdiff/review/minutes.py",
    "lawdiff/i18n/terms.py",
)
# Reviewed: the messages of those sources whose Dutch is the English word itself.
SAME_IN_DUTCH = {
    "Agenda",  # the glossary's "agenda"
    "Status:",
    "id {id}",
    "import",  # a write of the review log (terms.action)
    "open",  # a decision: the glossary's "open"
    "paragraaf",  # a kind of clause the book names in Dutch
    "status",  # a field and a write of the review log (terms.field, terms.action)
}
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.fixture(scope="module")
def untranslated() -> dict[str, list[re.Pattern[str]]]:
    return untranslated_in(SOURCES, SAME_IN_DUTCH)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


# ---------------------------------------------------------------------------
# Each member's language


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found, page[:200]
    return found.group(1)


def test_two_members_read_at_once_each_in_their_own_language(store: Path) -> None:
    app = make(store)
    anne, bert = Member(app, "Anne"), Member(app, "Bert")
    anne.client.headers["Accept-Language"] = "nl-NL,nl;q=0.9,en;q=0.8"
    bert.client.headers["Accept-Language"] = "en-GB,en;q=0.9"

    def read(member: Member) -> tuple[str, str]:
        page = member.page("/agenda")
        return member.name, lang_of(page) + (" wat nog open staat" in page) * " nl" + ("still open" in page) * " en"

    with ThreadPoolExecutor(4) as pool:
        seen = list(pool.map(read, [anne, bert] * 6))
    assert sorted(set(seen)) == [("Anne", "nl nl"), ("Bert", "en en")]
    r = anne.client.get(PAGE_45)
    assert r.headers["content-language"] == "nl" and "Volgende onbesliste →" in r.text
    assert "Next undecided →" in bert.page(PAGE_45)  # the review blocks are kept per language


def test_the_browsers_language_first_then_the_servers_own(store: Path) -> None:
    dutch_server = make(store, lang="nl")
    assert lang_of(Member(dutch_server, "Anne").page("/agenda")) == "nl"  # no Accept-Language
    carla = Member(dutch_server, "Carla")
    carla.client.headers["Accept-Language"] = "fr-FR,fr;q=0.9"  # none of lawdiff's: the server's
    assert lang_of(carla.page("/agenda")) == "nl"
    carla.client.headers["Accept-Language"] = "fr-FR,en;q=0.5"
    assert lang_of(carla.page("/agenda")) == "en"
    assert lang_of(Member(make(store), "Dora").page("/agenda")) == "en"  # English when the server chose none


def test_the_language_link_is_kept_by_the_session_and_chosen_before_signing_in_too(store: Path) -> None:
    app = make(store)
    anne = Member(app, "Anne")
    anne.client.headers["Accept-Language"] = "en-GB"
    page = anne.page("/agenda")
    link = lxml_html.fromstring(page).xpath('//nav[@class="languages"]//a[@lang="nl"]')[0]
    assert link.text == "Nederlands" and link.get("hreflang") == "nl"
    r = anne.client.get(link.get("href"), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/agenda"
    after = anne.page("/agenda")
    assert lang_of(after) == "nl" and '<b lang="nl" aria-current="true">Nederlands</b>' in after
    # Another browser of the same name keeps its own choice; a signed-out browser its cookie's.
    assert lang_of(Member(app, "Anne").page("/agenda")) == "en"
    anne.post("/signout", {"csrf": anne.form("/review/status")["csrf"]})
    signin = anne.client.get("/signin")
    assert lang_of(signin.text) == "nl" and "Aanmelden" in signin.text
    carla = Member(app, "")
    carla.client.get("/language?to=nl&next=/signin")
    assert carla.signin("Carla", "pw").status_code == 303
    assert lang_of(carla.page("/agenda")) == "nl"


# ---------------------------------------------------------------------------
# Nothing left in English


def test_every_served_page_is_dutch(store: Path, untranslated: dict[str, list[re.Pattern[str]]]) -> None:
    app = make(store, lang="nl")
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    token = anne.form("/review/status")["csrf"]
    assert anne.post("/meeting/start", {"csrf": token, "date": "2026-12-02", "attendees": "Anne, Bert"}).status_code
    anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"})
    anne.post("/review/assign", {**anne.form("/review/assign"), "assignee": "Bert"})
    anne.post("/review/comment", {**anne.form("/review/comment"), "text": "Akkoord."})
    carla.post("/review/status", {**carla.form("/review/status"), "status": "query", "text": "Waarom?"})
    answer = anne.post("/meeting/discuss", anne.form("/meeting/discuss", row="diff-2007-2017-2017-45C1"))
    assert answer.status_code == 303
    said = anne.post(
        "/review/comment", {**anne.form("/review/comment"), "text": "Nog een."}, **{"X-Lawdiff-Fetch": "1"}
    )
    block = lxml_html.fragment_fromstring(said.json()["html"])
    texts: list[str] = [said.json()["message"], block.text_content(), *block.xpath(".//@placeholder")]
    for who, path, parts in (
        (anne, "/agenda", "//body"),
        (carla, "/agenda", "//body"),
        (anne, "/meeting", "//body"),
        (carla, "/meeting", "//body"),
        (anne, "/people?name=Anne", "//body"),
        (anne, PAGE_45, "//div[contains(@class,'serve-bar')] | //div[@class='rv']"),
        (carla, PAGE_45, "//div[contains(@class,'serve-bar')] | //div[@class='rv']"),
        (anne, "/index.html", "//div[contains(@class,'serve-bar')]"),
        (anne, "/articles/nothing.html", "//body"),
    ):
        r = who.client.get(path)
        texts += page_texts(r.text, parts)
    refused = carla.post("/meeting/end", {"csrf": carla.form("/review/status")["csrf"]})
    confirm = anne.post("/review/correct", {**anne.form("/review/correct"), "pin": "2007:45D"})
    signin = Member(app, "").client.get("/signin")
    for page in (refused.text, confirm.text, signin.text):
        texts += page_texts(page)
    minutes = anne.client.get("/export?format=md")
    assert minutes.headers["content-disposition"] == 'attachment; filename="notulen-2026-12-02.md"'
    texts.append(minutes.text)
    texts += word_texts(anne.client.get("/export?format=docx").content)
    left = left_in_english(texts, untranslated)
    assert left == [], "\n".join(left)
    assert "Notulen van de vergadering van 2 december 2026" in minutes.text
    assert "#### 45C4(b): aanvaard" in minutes.text and "- gewijzigd; id `" in minutes.text


def word_texts(data: bytes) -> list[str]:
    """What a reader of a Word document reads outside the law text (runs marked Dutch): its paragraphs,
    its page header, and its comments (python-docx reads the document; the comments are its own part)."""
    doc = python_docx.Document(io.BytesIO(data))
    out = ["".join(r.text for r in p.runs if r._r.find(f"{W}rPr/{W}lang") is None) for p in doc.paragraphs]
    out += [p.text for s in doc.sections for p in s.header.paragraphs]  # the title, in the interface's language
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        if "word/comments.xml" in z.namelist():
            comments = etree.fromstring(z.read("word/comments.xml"))
            out += ["".join(t.text or "" for t in c.iter(f"{W}t")) for c in comments.iter(f"{W}comment")]
    return out


def test_the_redline_is_dutch_around_the_law_text(untranslated: dict[str, list[re.Pattern[str]]]) -> None:
    old, new = moved_clauses()
    cmp = compare(old, new)
    with i18n.use("nl"):
        data = docx(cmp, list(cmp.changes), old, new)
    texts = word_texts(data)
    assert left_in_english(texts, untranslated) == []
    assert "Wijzigingen bijgehouden door lawdiff: alles accepteren geeft 2002, alles weigeren geeft 2001." in texts
    assert any(t.startswith("2001 1C ging naar 2002 1A") for t in texts), texts
    header = zipfile.ZipFile(io.BytesIO(data)).read("word/header1.xml").decode()
    assert 'w:lang w:val="nl-NL"' in header
