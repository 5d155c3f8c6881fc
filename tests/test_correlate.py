"""Correlation tables: old number -> new number, one row per clause (lawdiff correlate)."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import Corpus
from lawdiff.diff import compare
from lawdiff.diff.correlate import Relation, by_new, rows


def test_every_clause_of_article_45_has_its_row(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    table = rows(compare(old, new))
    mapping = {(r.old, r.new): r for r in table if not r.heading}
    assert mapping[(("45D",), ("45D1",))].relation is Relation.RENUMBERED
    assert mapping[(("45E.p1",), ("45E1",))].relation is Relation.RENUMBERED
    assert mapping[(("45C1",), ("45C1",))].relation is Relation.UNCHANGED
    assert mapping[(("45C1",), ("45C1",))].reworded == "reworded"
    assert mapping[(("45C2(a)",), ("45C2(a)",))].reworded == "editorial"
    assert mapping[((), ("45D2",))].relation is Relation.ADDED and mapping[((), ("45D2",))].ratio == "0:1"
    # Every clause with own text of article 45 in either edition stands in exactly one text row.
    for edition, side in ((old, 0), (new, 1)):
        texts = [c.address for c in edition.find("45").walk() if c.text]  # type: ignore[union-attr]
        rows_of = [a for r in table if not r.heading for a in (r.old, r.new)[side]]
        assert sorted(texts) == sorted(a for a in rows_of if a.startswith("45"))


def test_splits_are_one_to_several_and_the_orderings_hold(corpus: Corpus) -> None:
    table = rows(compare(corpus.edition("1963"), corpus.edition("2007")))
    split = next(r for r in table if r.old == ("45(d)",))
    assert split.relation is Relation.SPLIT and split.new == ("45C4(a)", "45C4(b)") and split.ratio == "1:2"
    olds = [r.old[0] for r in table if r.old]
    assert olds.index("45(a)") < olds.index("45(d)") < olds.index("45.p1")
    news = [r.new[0] for r in sorted(table, key=by_new) if r.new]
    assert news.index("45A") < news.index("45C4(a)") < news.index("45G")
    # What one corpus lacks (1963's articles 41-49 but 45) is not listed as removed.
    assert not any(r.old and r.old[0].startswith("41") for r in table)


def test_the_command_in_every_format() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["correlate", "2007", "2017", "--article", "45"])
    assert text.exit_code == 0, text.output
    assert "45E.p1" in text.output and "renumbered" in text.output
    assert "2007 -> 2017: 17 same number, 3 renumbered, 1 added (0:1)" in text.output
    got = runner.invoke(main, ["correlate", "2007", "2017", "--article", "45", "--format", "csv"]).output
    records = list(csv.DictReader(io.StringIO(got)))
    assert {"old": "45D", "new": "45D1"}.items() <= next(r for r in records if r["new"] == "45D1").items()
    md = runner.invoke(main, ["correlate", "1963", "2007", "--article", "45", "--format", "md"]).output
    assert "| 45(d) | 45C4(a), 45C4(b) | split (1:n) | 1:2 | reworded |" in md
    doc = json.loads(runner.invoke(main, ["correlate", "2007", "2017", "--format", "json"]).output)
    assert {"old": ["45D"], "new": ["45D1"], "relation": "renumbered"}.items() <= next(
        r for r in doc["rows"] if r["new"] == ["45D1"]
    ).items()
    by_new_order = runner.invoke(main, ["correlate", "2007", "2017", "--article", "45", "--by", "new"]).output
    assert by_new_order.index("45D1") < by_new_order.index("45D2") < by_new_order.index("45E1")


def test_what_only_one_corpus_holds_is_said_not_dropped_without_a_word() -> None:
    # 1963 holds articles 41-49 and 1997 only 53-56: the table is empty, and said to be so, and why.
    for fmt in ("text", "md"):
        out = CliRunner().invoke(main, ["correlate", "1963", "1997", "--format", fmt, "--no-cache"])
        assert out.exit_code == 0, out.output
        lines = out.stdout.splitlines()
        assert lines[-1] == (
            "not compared: article(s) 53-56; heading(s) H6.3.I only in the 1997 corpus (the 1963 corpus does not"
            " hold them); article(s) 41-49; heading(s) H6.juiste-gang-van-zaken only in the 1963 corpus (the 1997"
            " corpus does not hold them)"
        )
        if fmt == "text":
            assert lines[-2] == "1963 -> 1997: no clause that both corpora hold"
    # 2007 -> 2017: article 6 is only in the 2017 corpus, said after the counts; CSV and JSON stay data.
    text = CliRunner().invoke(main, ["correlate", "2007", "2017", "--no-cache"]).stdout.splitlines()
    assert text[-2].startswith("2007 -> 2017: ") and text[-1].startswith("not compared: article(s) 6;")
    assert "not compared" not in CliRunner().invoke(main, ["correlate", "2007", "2017", "--format", "csv"]).stdout
    assert "not compared" not in CliRunner().invoke(main, ["correlate", "2007", "2017", "--format", "json"]).stdout
    # --article 45 leaves article 6 out of the question: nothing to say.
    only_45 = CliRunner().invoke(main, ["correlate", "2007", "2017", "--article", "45", "--no-cache"]).stdout
    assert "not compared" not in only_45


def test_every_format_labels_a_row_as_the_study_does(corpus: Corpus) -> None:
    # 45C4(b), 2007 -> 2017: the same number, reworded; never "unchanged" beside "reworded".
    table = rows(compare(corpus.edition("2007"), corpus.edition("2017")))
    (c4b,) = [r for r in table if r.old == ("45C4(b)",)]
    assert (c4b.label, c4b.words) == ("same number", "reworded")
    runner = CliRunner()
    out = {
        fmt: runner.invoke(main, ["correlate", "2007", "2017", "--format", fmt, "--no-cache"]).output
        for fmt in ("text", "md", "csv")
    }
    assert "45C4(b)   45C4(b)   same number" in out["text"]
    assert "| 45C4(b) | 45C4(b) | same number | 1:1 | reworded |" in out["md"]
    (record,) = [r for r in csv.DictReader(io.StringIO(out["csv"])) if r["old"] == "45C4(b)"]
    assert (record["relation"], record["words"]) == ("same number", "reworded")
    assert all("unchanged" not in text for text in out.values())
