"""``lawdiff serve`` as a chair runs a meeting with it: who decided, who may do what, sessions, the store.

In-process through Starlette's test client (the helpers of ``test_serve.py``);
the tests that need a real socket (the Host header as a browser on another
site sends it, a copied cookie, the sign-in throttle) drive a server in a
thread with ``httpx``, as ``requests`` would.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import html as lxml_html
from test_serve import ROW_45C4B, Member, decision, make

from lawdiff.review import Status, open_for_reading


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


def state_line(member: Member, row: str = ROW_45C4B) -> str:
    tree = lxml_html.fromstring(member.page())
    found = tree.xpath(f'//tbody[.//*[@id="{row}"]]//p[@class="rv-state"]')
    assert found, f"no state line in {row}"
    return " ".join(found[0].text_content().split())


def block_text(member: Member, row: str = ROW_45C4B) -> str:
    tree = lxml_html.fromstring(member.page())
    found = tree.xpath(f'//tbody[.//*[@id="{row}"]]//div[@class="rv"]')
    assert found, f"no review block in {row}"
    return " ".join(found[0].text_content().split())


# ---------------------------------------------------------------------------
# 1. The decider named


def test_the_status_line_names_who_decided_not_who_wrote_last(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"}).status_code == 303
    assert carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Fine by me."}).status_code == 303
    fields = carla.form("/review/assign")
    assert carla.post("/review/assign", {**fields, "assignee": "Carla"}).status_code == 303
    line = state_line(carla)
    assert re.fullmatch(r"Status: accepted \(set by Anne, \d{4}-\d\d-\d\d \d\d:\d\d UTC\); assigned to Carla", line), line


# ---------------------------------------------------------------------------
# 2. Roles, in one place


def test_every_route_names_what_it_asks_for(store: Path) -> None:
    from starlette.routing import Route

    from lawdiff.serve.auth import RULES, Action

    app = make(store)
    rules = app.state.rules  # type: ignore[attr-defined]
    for route in app.routes:  # type: ignore[attr-defined]
        assert isinstance(route, Route)
        for method in route.methods or ():
            if method != "HEAD":
                assert (route.path, method) in rules, f"{method} {route.path} names no action"
    # Every action has its row in the table of who may do what.
    assert set(RULES) == set(Action)


def test_a_member_may_not_reopen_a_decision_and_her_query_keeps_it(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "rejected"}).status_code == 303
    fields = carla.form("/review/status")
    r = carla.post("/review/status", {**fields, "status": "open"})
    assert r.status_code == 403 and "Only the chairs may reopen" in r.text
    # Her query leaves the decision as it is and asks the chairs.
    r = carla.post("/review/status", {**fields, "status": "query", "text": "Is 45C4(b) not still needed?"})
    assert r.status_code == 303, r.text
    d = decision(store)
    assert d is not None and d.status is Status.REJECTED
    assert "Status: rejected (set by Anne," in state_line(carla)
    assert "Queried by Carla: undecided until a chair confirms or changes the decision." in block_text(carla)
    # It counts as undecided: the agenda lists it in query ("Next undecided" walks the agenda's list).
    agenda = carla.page("/agenda")
    assert re.search(r"\d+ open, 1 in query", agenda) and "queried: a chair is to confirm or change it" in agenda
    assert f'45.html#{ROW_45C4B}"' in agenda
    # A chair answers by confirming the decision: the question is answered, the change decided again.
    fields = anne.form("/review/status")
    assert anne.post("/review/status", {**fields, "status": "rejected"}).status_code == 303
    assert re.search(r"\d+ open, 0 in query", anne.page("/agenda"))
    with open_for_reading(store) as s:
        (q,) = [c for c in s.comments() if c.text == "Is 45C4(b) not still needed?"]
        assert q.question == "answered" and q.author == "Carla"
    assert "Queried by" not in block_text(anne)
