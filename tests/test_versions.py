"""Versions of one edition: two sources of a year, amendments, site crawls.

The corpora are built in tmp_path from the seed dumps (copied byte for byte)
plus small hand-made pages in the seed formats.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import load
from lawdiff.diff import ChangeKind, Study, compare, history
from lawdiff.sources.nuxt import devalue

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "corpus"


def encode(root: Any) -> str:
    """A small devalue encoder: every value an element, containers by index."""
    out: list[Any] = []

    def add(v: Any) -> int:
        if v is devalue.UNDEFINED:
            return -1
        index = len(out)
        out.append(None)
        if isinstance(v, dict):
            out[index] = {k: add(x) for k, x in v.items()}
        elif isinstance(v, list):
            out[index] = [add(x) for x in v]
        else:
            out[index] = v
        return index

    add(root)
    return json.dumps(out, ensure_ascii=False)


def payload(record: dict[str, Any], key: str = "-page") -> str:
    return encode({"data": {key: record}, "prerenderedAt": 1})


def section(letter: str, title: str, *body: Any) -> list[Any]:
    """Minimark nodes of one section: its anchor, its heading, its body."""
    return [
        ["p", {}, ["span", {"id": f"artikel-45-{letter.lower()}"}]],
        ["h2", {"id": letter.lower()}, f"{letter}. {title}"],
        *body,
    ]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


# ---------------------------------------------------------------------------
# Amendments


NEW_45G = (
    "Een speler behoort zijn kaart niet dicht te leggen voordat alle vier de spelers in de slag hebben bijgespeeld."
)


def amendment_corpus(tmp_path: Path, date: Any = "2024-03-01", new_45g: str = "") -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(SEEDS / "2017", corpus / "2017")
    body = [
        ["p", {}, "Per 1 maart 2024 is artikel 45G gewijzigd."],
        ["h2", {}, "Artikel 45 — Gespeelde kaart"],
        *section("G", "Slag dichtleggen", ["p", {}, new_45g or NEW_45G]),
    ]
    record = {
        "title": "Wijzigingen artikel 45 per 1 maart 2024",
        "path": "/wijzigingen-2024",
        "source": "Vertaling spelregels 2017 3e druk.pdf",
        "ingangsdatum": date,
        "betreft_artikelen": [45],
        "body": {"type": "minimark", "value": body},
    }
    (corpus / "2017" / "wijzigingen-2024.payload.json").write_text(payload(record), encoding="utf-8")
    return corpus


def test_an_amendment_makes_a_version_of_its_own(tmp_path: Path) -> None:
    corpus = load([amendment_corpus(tmp_path)])
    assert [e.name for e in corpus.editions] == ["2017", "2017+2024-03-01"]
    base, amended = corpus.edition("2017"), corpus.edition("2017+2024-03-01")
    assert amended.effective == "2024-03-01" and amended.base == "2017"
    # The edition as printed keeps its text; the version has the new one,
    # with the amendment as its source.
    old_g, new_g = base.find("45G"), amended.find("45G")
    assert old_g is not None and new_g is not None
    assert old_g.text != NEW_45G and new_g.text == NEW_45G
    assert new_g.source.file == "2017/wijzigingen-2024.payload.json"
    assert amended.find("45F") is base.find("45F")  # untouched subtrees are shared
    # The amendment's own page says what changed; it is no law text.
    assert base.find("wijzigingen-2024") is None
    assert amended.find("wijzigingen-2024") is None


def test_comparing_an_edition_with_its_amended_version(tmp_path: Path) -> None:
    corpus = load([amendment_corpus(tmp_path)])
    comp = compare(corpus.edition("2017"), corpus.edition("2017+2024-03-01"))
    differences = [ch for ch in comp.changes if ch.is_difference]
    assert [(ch.kind, ch.old, ch.new) for ch in differences] == [(ChangeKind.MODIFIED, ("45G",), ("45G",))]
    result = run("compare", "2017", "2017+2024-03-01", "--corpus", str(tmp_path / "corpus"), "--no-color")
    assert result.exit_code == 0, result.output
    assert "[-gespeeld-]{+bijgespeeld+}" in result.output


def test_history_runs_through_the_amended_version(tmp_path: Path) -> None:
    corpus = load([amendment_corpus(tmp_path)])
    h = history(Study(corpus.editions), corpus.edition("2017"), "45G")
    assert [(s.edition, s.addresses, s.change) for s in h.steps] == [
        ("2017", ("45G",), ""),
        ("2017+2024-03-01", ("45G",), "modified"),
    ]
    assert h.introduced == "2017+2024-03-01"


def test_an_amendment_that_rewrites_a_clause_entirely_is_still_its_successor(tmp_path: Path) -> None:
    # The amendment names the clause it replaces by its address: however new
    # the wording, it is that clause's next version, not a removal + addition.
    other = "De wedstrijdleider beslist over elke vraag die deze spelregels niet regelen."
    corpus = load([amendment_corpus(tmp_path, new_45g=other)])
    comp = compare(corpus.edition("2017"), corpus.edition("2017+2024-03-01"))
    differences = [(ch.kind, ch.old, ch.new) for ch in comp.changes if ch.is_difference]
    assert differences == [(ChangeKind.MODIFIED, ("45G",), ("45G",))]
    h = history(Study(corpus.editions), corpus.edition("2017+2024-03-01"), "45G")
    assert [(s.edition, s.addresses) for s in h.steps] == [("2017", ("45G",)), ("2017+2024-03-01", ("45G",))]
    assert h.introduced == "2017+2024-03-01"


def test_an_amendment_date_in_dutch_words(tmp_path: Path) -> None:
    corpus = load([amendment_corpus(tmp_path, date="1 maart 2024")])
    assert corpus.names()[:2] == ["2017", "2017+2024-03-01"]


def test_an_amendment_date_that_is_no_date_is_a_clear_error(tmp_path: Path) -> None:
    result = run("editions", "--corpus", str(amendment_corpus(tmp_path, date="binnenkort")))
    assert result.exit_code == 2
    assert "wijzigingen-2024.payload.json" in result.stderr
    assert "is not a date" in result.stderr
    assert result.stdout == ""


def test_an_amendment_page_is_fully_placed(tmp_path: Path) -> None:
    corpus = load([amendment_corpus(tmp_path)])
    check = next(c for c in corpus.checks if c.file.endswith("wijzigingen-2024.payload.json"))
    assert check.unplaced == ()
    assert check.placed == check.tokens > 0


# ---------------------------------------------------------------------------
# Two sources of one edition


def wiki_2017_page(tmp_path: Path) -> Path:
    """The wiki's 2017 article 45 (second printing): the site's text with one
    transcription difference in 45B."""
    corpus = load([SEEDS / "2017"])
    art = corpus.edition("2017").find("45")
    assert art is not None
    lines = ["Sjabloon:2017:45", "ARTIKEL 45 Gespeelde kaart"]
    for sec in art.children:
        lines.append(f"{sec.label} {sec.title}")
        if sec.text:
            text = sec.text.replace("zo nodig", "zonodig") if sec.address == "45B" else sec.text
            for note in sec.footnotes:
                # The wiki prints the marker as "1)" in the text, the note after it.
                text = f"{text[: note.anchor]} {note.address.rsplit('fn', 1)[1]}){text[note.anchor :]}"
            lines.append(text)
            lines.extend(f"{note.address.rsplit('fn', 1)[1]}) {note.text}" for note in sec.footnotes)
        for sub in sec.children:
            lines.append(f"{sub.label} {sub.text}".strip())
            for item in sub.children:
                lines.append(f"- {item.label} {item.text}")
    path = tmp_path / "corpus" / "2017-wiki" / "wiki-2017-45.txt"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def two_source_corpus(tmp_path: Path, settings: str = "") -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(SEEDS / "2017", corpus / "2017")
    wiki_2017_page(tmp_path)
    if settings:
        (corpus / "lawdiff.toml").write_text(settings, encoding="utf-8")
    return corpus


def test_two_sources_of_one_edition_load_as_variants(tmp_path: Path) -> None:
    corpus = load([two_source_corpus(tmp_path)])
    assert [e.name for e in corpus.variants] == ["2017@nuxt", "2017@wiki"]
    # The bare year is the newer printing (the site's 3e druk).
    assert [e.name for e in corpus.editions] == ["2017"]
    assert corpus.edition("2017").variant == "nuxt"
    assert corpus.edition("2017@wiki").find("45B") is not None


def test_the_settings_choose_which_source_the_bare_year_means(tmp_path: Path) -> None:
    settings = '[default]\n"2017" = "wiki"\n\n[printing]\n"2017@wiki" = "2e druk"\n'
    corpus = load([two_source_corpus(tmp_path, settings)])
    assert corpus.edition("2017").variant == "wiki"
    assert corpus.edition("2017@wiki").printings == ("2e druk",)


def test_bad_settings_are_a_clear_error(tmp_path: Path) -> None:
    result = run("editions", "--corpus", str(two_source_corpus(tmp_path, "[default\n")))
    assert result.exit_code == 2
    assert "lawdiff.toml" in result.stderr and "not valid TOML" in result.stderr


def test_compare_the_two_sources(tmp_path: Path) -> None:
    corpus_dir = two_source_corpus(tmp_path)
    corpus = load([corpus_dir])
    comp = compare(corpus.edition("2017@wiki"), corpus.edition("2017@nuxt"))
    differences = [ch for ch in comp.changes if ch.is_difference and ch.article == "45"]
    assert [(ch.kind, ch.old, ch.new, ch.editorial_only) for ch in differences] == [
        (ChangeKind.MODIFIED, ("45B",), ("45B",), False)
    ]
    result = run("compare", "2017@wiki", "2017@nuxt", "--corpus", str(corpus_dir), "--no-color", "--article", "45")
    assert "[-zonodig-]{+zo nodig+}" in result.output


def test_editions_lists_both_sources(tmp_path: Path) -> None:
    result = run("editions", "--corpus", str(two_source_corpus(tmp_path)))
    assert result.exit_code == 0
    assert "2017@nuxt" in result.output and "2017@wiki" in result.output


# ---------------------------------------------------------------------------
# A site crawl


def test_a_site_crawl_folder_is_one_edition_in_contents_order(tmp_path: Path) -> None:
    crawl = tmp_path / "crawl"
    for seed, path in (
        ("nuxt-artikel-45.payload.json", "spelen/juiste-gang-van-zaken/artikel-45"),
        ("nuxt-artikel-6.payload.json", "voorbereiding-en-voortgang/artikel-6"),
    ):
        (crawl / path).mkdir(parents=True)
        shutil.copyfile(SEEDS / "2017" / seed, crawl / path / "_payload.json")
    # The preface names no printing: it takes the edition of its crawl.
    (crawl / "voorwoord").mkdir()
    preface = {
        "title": "Voorwoord",
        "path": "/voorwoord",
        "body": {"type": "minimark", "value": [["p", {}, "Dit is de vertaling van de spelregels."]]},
    }
    (crawl / "voorwoord" / "_payload.json").write_text(payload(preface), encoding="utf-8")
    corpus = load([crawl])
    assert [e.name for e in corpus.editions] == ["2017"]
    edition = corpus.edition("2017")
    assert [c.address for c in edition.clauses] == ["voorwoord", "H3", "H6"]
    assert edition.find("voorwoord") is not None and edition.find("45C4(b)") is not None
    assert all(not c.unplaced for c in corpus.checks)


def test_a_lone_page_without_an_edition_is_still_an_error(tmp_path: Path) -> None:
    preface = {"title": "Voorwoord", "path": "/voorwoord", "body": {"type": "minimark", "value": [["p", {}, "x"]]}}
    (tmp_path / "voorwoord.json").write_text(payload(preface), encoding="utf-8")
    result = run("check", str(tmp_path))
    assert result.exit_code == 2
    assert "voorwoord.json" in result.stderr and "which edition" in result.stderr


@pytest.mark.parametrize("name", ["2017@wiki", "2017@nuxt", "2017"])
def test_show_takes_variant_names(tmp_path: Path, name: str) -> None:
    result = run("show", f"{name}:45B", "--corpus", str(two_source_corpus(tmp_path)))
    assert result.exit_code == 0, result.output
    assert f"{name}:45B" in result.output


def test_a_settings_choice_the_corpus_does_not_have_names_the_settings_file(tmp_path: Path) -> None:
    result = run("editions", "--corpus", str(two_source_corpus(tmp_path, '[default]\n"2017" = "wikix"\n')))
    assert result.exit_code == 2
    assert "lawdiff.toml" in result.stderr and "'wikix'" in result.stderr
    assert "set [default]" in result.stderr


@pytest.mark.parametrize(
    ("settings", "why"),
    [("", "the newer printing, as no setting chooses"), ('[default]\n"2017" = "nuxt"\n', "chosen in lawdiff.toml")],
)
def test_editions_says_why_the_bare_year_means_what_it_means(tmp_path: Path, settings: str, why: str) -> None:
    result = run("editions", "--corpus", str(two_source_corpus(tmp_path, settings)))
    assert result.exit_code == 0
    assert f"2017 means 2017@nuxt ({why})" in result.output


def test_history_from_a_named_source(tmp_path: Path) -> None:
    result = run("history", "2017@wiki:45B", "--corpus", str(two_source_corpus(tmp_path)), "--no-color")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("history of 2017@wiki:45B\n")
