"""The agenda's order, a meeting setting a chair picks (issue 24): by article (the default) or most
significant first; "Next undecided" follows it, the minutes stay in article order, every item shows its
score.  In-process through Starlette's test client (the helpers of ``test_serve.py``); the browser's
walk is ``test_serve_browser.py``'s."""

from __future__ import annotations

import re
from pathlib import Path

from lxml import html as lxml_html
from test_serve import Member, make

from lawdiff.review import open_for_reading, open_for_writing
from lawdiff.review.settings import AGENDA_ORDER, AgendaOrder, agenda_order

SCORE = re.compile(r"significance (\d+\.\d\d)")


def ranked_items(member: Member) -> list[tuple[str, float]]:
    """Each item of the agenda as listed, most significant first: its link and the score it shows."""
    tree = lxml_html.fromstring(member.page("/agenda"))
    items = tree.xpath('//ol[contains(@class, "agenda-ranked")]/li')
    assert items, "the agenda is not in significance order"
    out = []
    for li in items:
        score = SCORE.search(li.text_content())
        assert score, li.text_content()
        out.append((li.xpath(".//a/@href")[0], float(score.group(1))))
    return out


def token(member: Member) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', member.page("/agenda"))
    assert found
    return found.group(1)


def next_after(member: Member, after: str = "") -> str:
    r = member.client.get("/next", params={"after": after} if after else None, follow_redirects=False)
    assert r.status_code == 303
    return str(r.headers["location"])


def change_at(member: Member, href: str) -> str:
    page, row = href.split("#", 1)
    return member.form("/review/status", row=row, path=page)["change"]


def test_a_chair_sets_the_agenda_order_and_next_undecided_follows_it(tmp_path: Path) -> None:
    store = tmp_path / "review.sqlite"
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    by_article = next_after(carla)
    # A member sees the order and may not change it.
    assert "Order: by article (a chair chooses it)." in carla.page("/agenda")
    assert 'action="/agenda/order"' not in carla.page("/agenda")
    r = carla.post("/agenda/order", {"csrf": token(carla), "order": "significance"})
    assert r.status_code == 403 and "Only the chairs may choose the agenda's order." in r.text
    assert 'action="/agenda/order"' in anne.page("/agenda")
    assert anne.post("/agenda/order", {"csrf": token(anne), "order": "by-flag"}).status_code == 400
    r = anne.post("/agenda/order", {"csrf": token(anne), "order": "significance"})
    assert (r.status_code, r.headers["location"]) == (303, "/agenda")
    # Every member's agenda is one list now, each item with its score, most significant first.
    items = ranked_items(carla)
    scores = [score for _, score in items]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    # "Next undecided" walks that list, and so is not the article order's first.
    first, second = items[0][0], items[1][0]
    assert next_after(carla) == first != by_article
    assert next_after(carla, change_at(carla, first)) == second
    with open_for_reading(store) as s:
        assert agenda_order(s) is AgendaOrder.SIGNIFICANCE
        (entry,) = [e for e in s.log() if e.table == "marks"]
        assert (entry.author, entry.action, entry.record) == ("Anne", "mark", AGENDA_ORDER)
    # Back to article order: the first of the article order again.
    anne.post("/agenda/order", {"csrf": token(anne), "order": "article"})
    assert next_after(carla) == by_article and "agenda-ranked" not in carla.page("/agenda")


def test_the_minutes_stay_in_article_order_whatever_the_agendas(tmp_path: Path) -> None:
    store = tmp_path / "review.sqlite"
    app = make(store)
    anne = Member(app, "Anne")
    anne.post("/agenda/order", {"csrf": token(anne), "order": "significance"})
    anne.post("/meeting/start", {"csrf": token(anne), "date": "2024-05-14", "attendees": "Anne"})
    rows = [href.split("#", 1)[1] for href, _ in ranked_items(anne)]
    # Two changes of one pair that the agenda lists in the other order than the article page's rows.
    page = anne.page()
    x, y = next(
        (x, y)
        for i, x in enumerate(rows)
        for y in rows[i + 1 :]
        if x.rsplit("-", 1)[0] == y.rsplit("-", 1)[0] and page.index(f'id="{y}"') < page.index(f'id="{x}"')
    )
    ids = {}
    for row in (x, y):  # decided in the agenda's order
        fields = anne.form("/review/status", row=row)
        ids[row] = fields["change"][:10]
        assert anne.post("/review/status", {**fields, "status": "accepted"}).status_code == 303
    minutes = anne.client.get("/export", params={"format": "md"}).text
    assert re.findall(r"id `([0-9a-f]{10})`", minutes) == [ids[y], ids[x]]


def test_an_order_the_store_does_not_know_reads_as_article_order(tmp_path: Path) -> None:
    store = tmp_path / "review.sqlite"
    with open_for_writing(store) as s:
        assert agenda_order(s) is AgendaOrder.ARTICLE  # none set
        s.set_mark(AGENDA_ORDER, "by-flag", "a newer lawdiff")
        assert agenda_order(s) is AgendaOrder.ARTICLE
