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
from test_serve import ROW_45C4B, Member, make


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


def state_line(member: Member, row: str = ROW_45C4B) -> str:
    tree = lxml_html.fromstring(member.page())
    found = tree.xpath(f'//tbody[.//*[@id="{row}"]]//p[@class="rv-state"]')
    assert found, f"no state line in {row}"
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
