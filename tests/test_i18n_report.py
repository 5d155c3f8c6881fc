"""The committee report's pages in Dutch: nothing of their catalog left in English, law text marked Dutch,
and the pages kept in the cache by language.

``lawdiff --lang nl report`` is run once on the bundled corpus with a draft and a review store (every page
the report has: the index, the article and history pages, a correlation table, ``review.html``), and
``lawdiff --lang nl compare --format html`` twice (the second of a pair with an uncertain match, whose
reasons it shows); each page is read as a reader reads it (the helpers of ``tests/untranslated.py``: its
text outside the law text, its labels, titles and placeholders, and the words of its script), and a
message of the catalog that the report's code marks (:data:`SOURCES`) and that comes out in English
fails the test.  The messages whose Dutch is the English word are a
reviewed list (:data:`SAME_IN_DUTCH`).  The English pages are the golden files' (``tests/test_html.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html as lxml_html
from test_html_review import _draft, _store
from untranslated import left_in_english, page_texts, untranslated

from lawdiff import i18n
from lawdiff.cli import main
from lawdiff.report.html.markup import script_texts
from lawdiff.review import CorrectionKind, open_for_writing

# The code of the report's pages, and of the reasons of a match they show: every message it marks must come
# out in Dutch.
SOURCES = (
    "lawdiff/report/html/*.py",
    "lawdiff/i18n/terms.py",
    "lawdiff/diff/correlate.py",
    "lawdiff/align/*.py",
    "lawdiff/diff/scope.py",
)
# Reviewed: the messages of those sources whose Dutch is the English word itself.
SAME_IN_DUTCH = {
    "Synopsis",  # Dutch has the word (a synopsis of law texts)
    "synopsis",
    "consistent",  # a retargeted reference that leads where the old one's successor is
    "id {id}",
    "import",  # a write of the review log (terms.action)
    "in {clauses}",
    "open",  # a decision: the glossary's "open"
    "paragraaf",  # a kind of clause the book names in Dutch
    "status",  # a field and a write of the review log (terms.field, terms.action)
}
MONTHS = "januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december"


def run(args: list[str], env: dict[str, str]) -> str:
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The report of 2007 and 2017 (a draft of 2017, a review store) in Dutch and then in English, with one
    cache; and the pages ``compare --format html`` writes in Dutch."""
    folder = tmp_path_factory.mktemp("nl")
    store = _store(folder / "review.sqlite")
    draft = _draft(folder / "draft")
    with open_for_writing(store) as s:  # a hand correction naming a clause no edition holds
        s.add_correction(CorrectionKind.FORBID, ("2007", "2017"), ("45D",), ("45Z9",), "Anne")
    env = {"LAWDIFF_CACHE": str(folder / "cache")}
    args = ["report", "2007", "2017", "--corpus", str(draft), "--review", str(store)]
    # A decision on 1963 -> 2007, which this report does not compare.
    run(["review", "set", "2007:45C1", "query", "--pair", "1963", "2007", "--review", str(store)], env)
    run(["--lang", "nl", *args, "-o", str(folder / "nl")], env)
    kept = len(list((folder / "cache" / "html").rglob("*.pickle")))
    run([*args, "-o", str(folder / "en")], env)
    (folder / "kept.txt").write_text(f"{kept} {len(list((folder / 'cache' / 'html').rglob('*.pickle')))}")
    page = run(["--lang", "nl", "compare", "2007", "2017", "--corpus", str(draft), "--format", "html"], env)
    (folder / "compare.html").write_text(page, encoding="utf-8")
    # An uncertain match (1963 45(a) -> 2007 45C1) shows the aligner's reasons.
    page = run(["--lang", "nl", "compare", "1963", "2007", "--article", "45", "--format", "html"], env)
    (folder / "compare-1963.html").write_text(page, encoding="utf-8")
    return {
        "nl": folder / "nl",
        "en": folder / "en",
        "compare": folder / "compare.html",
        "compare-1963": folder / "compare-1963.html",
        "kept": folder / "kept.txt",
    }


def pages(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.html"))}


def test_every_page_of_the_report_is_dutch_outside_the_law_text(reports: dict[str, Path]) -> None:
    made = pages(reports["nl"])
    assert set(made) >= {"index.html", "review.html", "correlation-2007-2017.html", "articles/45-history.html"}
    made["compare.html"] = reports["compare"].read_text(encoding="utf-8")
    made["compare-1963.html"] = reports["compare-1963"].read_text(encoding="utf-8")
    texts = [t for page in made.values() for t in page_texts(page)]
    left = left_in_english(texts, untranslated(SOURCES, SAME_IN_DUTCH))
    assert left == [], "\n".join(left)
    # The glossary's words, Dutch dates and numbers.
    said = "\n".join(texts)
    for word in ("Wijzigingen in één oogopslag", "vernummerd", "Concordantietabel 2007 → 2017", "Synopsis van alle"):
        assert word in said, word
    assert re.search(rf"Anne, \d{{1,2}} ({MONTHS}) \d{{4}} \d\d:\d\d UTC", said)
    assert "gelijkenis 99,8%" in said and "aanvaard" in said and "verouderd" in said
    assert "niet meer in het corpus: 2017:45Z9" in said  # the hand correction naming a clause that is gone
    assert "koppelingsscore 0,28: gedeelde woorden 0,20, zelfde artikel (gat tussen koppelingen)" in said


def test_law_text_says_it_is_dutch_and_the_interface_its_own_language(reports: dict[str, Path]) -> None:
    """WCAG 3.1.1 and 3.1.2: the page's language is the interface's; law text, its titles, its first words and
    quoted words are Dutch in a page of either language."""
    law = "//*[contains(concat(' ', @class, ' '), ' lt ') or @class='atitle' or @class='gist' or @class='w']"
    for lang in ("nl", "en"):
        for name, page in pages(reports[lang]).items():
            tree = lxml_html.fromstring(page)
            assert tree.get("lang") == lang, name
            assert all(el.get("lang") == "nl" for el in tree.xpath(law)), name
            # A drafting pattern's words are quoted law words.
            quoted = tree.xpath("//ul[@class='patterns']//*[self::del or self::ins]")
            assert all(el.get("lang") == "nl" for el in quoted), name
        article = lxml_html.fromstring(pages(reports[lang])["articles/45.html"])
        assert len(article.xpath(law)) > 50 and article.xpath("//ul[@class='patterns']//ins")


def test_an_english_report_after_a_dutch_one_is_english(reports: dict[str, Path]) -> None:
    """The cache keeps each page per language: the English report made after the Dutch one with the same
    cache makes its own pages (as many again) and shows no Dutch word of the interface."""
    dutch, both = map(int, reports["kept"].read_text().split())
    assert dutch >= 3 and both == 2 * dutch
    made = pages(reports["en"])
    assert all('<html lang="en">' in page for page in made.values())
    assert "Changes at a glance" in made["articles/45.html"] and "oogopslag" not in made["articles/45.html"]
    assert "Correlation table" in made["correlation-2007-2017.html"]
    assert "Concordantietabel" not in made["correlation-2007-2017.html"]
    assert "data-text" not in made["articles/45.html"]  # report.js says its English words itself


def test_the_scripts_english_words_are_the_catalogs() -> None:
    """report.js holds its English words, which a Dutch page replaces with the catalog's (the body's
    data-text): each English message is in the script as written."""
    script = (Path(i18n.__file__).parent.parent / "report" / "assets" / "report.js").read_text(encoding="utf-8")
    with i18n.use("en"):
        english = json.loads(script_texts())
    for name, text in english.items():
        if isinstance(text, str):
            assert f"{name}: {json.dumps(text)}" in script, name
