"""``lawdiff serve`` under load: 20 committee members at once on the loopback address.

Run from the repository root::

    python3 benchmarks/bench_serve.py                  # 20 reviewers x 50 writes
    python3 benchmarks/bench_serve.py --reviewers 5 --writes 10

The server is ``lawdiff serve`` itself, a separate process on a free port
of 127.0.0.1, reading the bundled corpus, with a fresh store and a warm
cache.  Each simulated reviewer is a thread with its own HTTP connection and
session: it signs in, opens article 45, then makes its writes, half of them
decisions (the status of "its own" rows, taken in turn: accepted, query,
accepted...; each form carries the state it saw, as the page's script sends
it) and half comments on any row, viewing article 45 after every write and
the agenda after every tenth.

Meanwhile 20 more members keep article 45 open, each page receiving the
others' writes as the page's script does (``/api/updates`` every second, the
changed rows' blocks in the answer): measured, for every write and every open
page, the delay from the write (its transaction's start) to the page's answer
holding it; bound: 3 s, and none missed.

Measured: the latency of every decision (POST /review/status) and of every
view of article 45 (GET /articles/45.html, the whole body read), first
unloaded (one reviewer alone, 30 of each), then under the load; p50 and p95
and the ratio of each p95 to its unloaded p95.  Checked: no response but the
expected ones (a decision 200, a page 200), and nothing lost: every write in
the store and in its audit log (one command per write per reviewer).  The
targets of the issue on a 2-core machine: p95 under 200 ms for a decision,
under 500 ms for article 45.  The load average is printed before and after
(the machine is shared).  Written as JSON to ``benchmarks/output/bench_serve.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PASSWORD = "benchmark"
PAGE = "/articles/45.html"
FETCH = {"X-Lawdiff-Fetch": "1"}
_BLOCK = re.compile(r'<div class="rv" id="rv-([0-9a-f]{40})".*?</form>', re.S)
# The bound: every write on every open page within this many seconds.
LIVE_BOUND = 3.0
_FIELD = re.compile(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">')


def _epoch(at: str) -> float:
    """A store's UTC time (``2026-12-02T04:11:05.123456Z``) as seconds since the epoch."""
    from datetime import UTC, datetime

    return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def rows(page: str) -> dict[str, dict[str, str]]:
    """The status form's fields of every change row on a page, by change id."""
    return {m.group(1): dict(_FIELD.findall(m.group(0))) for m in _BLOCK.finditer(page)}


@dataclass
class Reviewer:
    name: str
    url: str
    decisions: list[float] = field(default_factory=list)
    views: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    writes: int = 0

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=60)

    def signin(self) -> None:
        token = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/signin").text)
        assert token is not None
        r = self.client.post("/signin", data={"csrf": token.group(1), "name": self.name, "password": PASSWORD})
        if r.status_code != 303:
            raise RuntimeError(f"{self.name}: sign-in gave {r.status_code}")

    def view(self, path: str = PAGE) -> str:
        t = time.perf_counter()
        r = self.client.get(path)
        took = time.perf_counter() - t
        if r.status_code != 200:
            self.errors.append(f"GET {path}: {r.status_code}")
        elif path == PAGE:
            self.views.append(took)
        return r.text

    def decide(self, fields: dict[str, str], status: str) -> str:
        t = time.perf_counter()
        r = self.client.post("/review/status", data={**fields, "status": status}, headers=FETCH)
        took = time.perf_counter() - t
        if r.status_code != 200:
            self.errors.append(f"POST status: {r.status_code} {r.text[:200]}")
            return fields["expect"]
        self.decisions.append(took)
        self.writes += 1
        return str(r.json()["status"])

    def comment(self, fields: dict[str, str], text: str) -> None:
        r = self.client.post("/review/comment", data={**fields, "text": text}, headers=FETCH)
        if r.status_code != 200:
            self.errors.append(f"POST comment: {r.status_code} {r.text[:200]}")
            return
        self.writes += 1

    def work(self, mine: list[str], writes: int, start: threading.Barrier) -> None:
        try:
            self.signin()
            forms = rows(self.view())
            known = {cid: forms[cid]["expect"] for cid in mine}
            others = sorted(forms)
            start.wait()
            for j in range(writes):
                if j % 2 == 0:
                    cid = mine[(j // 2) % len(mine)]
                    wanted = "query" if known[cid] == "accepted" else "accepted"
                    known[cid] = self.decide({**forms[cid], "expect": known[cid]}, wanted)
                else:
                    cid = others[(j * 7 + len(self.name)) % len(others)]
                    self.comment(forms[cid], f"{self.name}: remark {j}")
                self.view()
                if j % 10 == 9:
                    self.view("/agenda")
        except Exception as exc:  # a benchmark reports every failure, whatever it is
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.client.close()


class Watcher:
    """An open article page receiving the others' writes: it polls as the page's script does
    (``/api/updates`` every ``POLL`` seconds, the changed rows' blocks in the answer) and notes
    when each store version reached it."""

    POLL = 1.0  # as the page's script (lawdiff.serve.views.POLL_SECONDS)

    def __init__(self, name: str, url: str) -> None:
        self.reviewer = Reviewer(name, url)
        self.seen: list[tuple[float, int]] = []  # (wall time the answer arrived, the store's version in it)
        self.errors: list[str] = []
        self.stop = threading.Event()

    def work(self) -> None:
        client = self.reviewer.client
        try:
            self.reviewer.signin()
            page = self.reviewer.view()
            found = re.search(r'data-version="(\d+)"', page)
            version = int(found.group(1)) if found else 0
            while True:
                last = self.stop.is_set()
                r = client.get("/api/updates", params={"since": version, "page": PAGE}, headers=FETCH)
                if r.status_code != 200:
                    self.errors.append(f"GET /api/updates: {r.status_code}")
                else:
                    version = int(r.json()["version"])
                    self.seen.append((time.time(), version))
                if last:
                    break
                self.stop.wait(self.POLL)
        except Exception as exc:  # a benchmark reports every failure, whatever it is
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            client.close()

    def delays(self, written: list[tuple[int, float]]) -> tuple[list[float], int]:
        """For each write (log seq, its time), how long until this page had it; and how many it never had."""
        out: list[float] = []
        missed = 0
        for seq, at in written:
            arrived = next((t for t, v in self.seen if v >= seq and t >= at), None)
            if arrived is None:
                missed += 1
            else:
                out.append(arrived - at)
        return out, missed


def start_server(store: Path, cache: Path, names: list[str]) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "LAWDIFF_PASSWORD": PASSWORD, "LAWDIFF_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lawdiff.cli",
            "serve",
            "--port",
            "0",
            "--review",
            str(store),
            "--chairs",
            ",".join(names),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(ROOT),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"Open (\S+) in a browser", line)
    if found is None:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, found.group(1).rstrip("/")


def unloaded(url: str, n: int) -> tuple[list[float], list[float]]:
    alone = Reviewer("Alone", url)
    alone.signin()
    forms = rows(alone.view())
    cid = sorted(forms)[0]
    status = forms[cid]["expect"]
    for _ in range(n):
        status = alone.decide({**forms[cid], "expect": status}, "query" if status == "accepted" else "accepted")
        alone.view()
    alone.client.close()
    if alone.errors:
        raise SystemExit(f"unloaded run failed: {alone.errors[:3]}")
    return alone.decisions, alone.views


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(percentile(values, 0.95) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviewers", type=int, default=20)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--unloaded", type=int, default=30, help="decisions and views of the unloaded baseline")
    parser.add_argument("--watchers", type=int, default=20, help="open pages receiving the live updates")
    args = parser.parse_args()
    names = [f"Reviewer{i:02}" for i in range(1, args.reviewers + 1)]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "review.sqlite"
        proc, url = start_server(store, Path(tmp) / "cache", [*names, "Alone"])
        try:
            base_decisions, base_views = unloaded(url, args.unloaded)
            probe = Reviewer("Probe", url)
            probe.signin()
            ids = sorted(rows(probe.view()))
            probe.client.close()
            watchers = [Watcher(f"Watcher{i:02}", url) for i in range(1, args.watchers + 1)]
            watching = [threading.Thread(target=w.work) for w in watchers]
            for t in watching:
                t.start()
            reviewers = [Reviewer(n, url) for n in names]
            start = threading.Barrier(len(reviewers))
            threads = []
            for i, r in enumerate(reviewers):
                mine = ids[i :: len(reviewers)] or [ids[i % len(ids)]]
                threads.append(threading.Thread(target=r.work, args=(mine, args.writes, start)))
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
            for w in watchers:
                w.stop.set()
            for t in watching:
                t.join()
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        load_after = os.getloadavg()
        sys.path.insert(0, str(ROOT))
        from lawdiff.review import open_for_reading

        with open_for_reading(store) as s:
            log = [e for e in s.log() if e.author in set(names)]
            commands = {(e.author, e.write) for e in log}
            comments = [c for c in s.comments() if c.author in set(names)]
            # When each write was made (its transaction's start, UTC): the delays below count from it.
            written = sorted(
                {e.write: (e.seq, _epoch(e.at)) for e in log}.values()  # one per command: its last entry
            )
            integrity = s.integrity()
    errors = [e for r in reviewers for e in r.errors] + [e for w in watchers for e in w.errors]
    delays: list[float] = []
    missed = 0
    for w in watchers:
        d, m = w.delays(written)
        delays += d
        missed += m
    decisions = [x for r in reviewers for x in r.decisions]
    views = [x for r in reviewers for x in r.views]
    expected = args.reviewers * args.writes
    result = {
        "reviewers": args.reviewers,
        "writes_each": args.writes,
        "writes_answered": sum(r.writes for r in reviewers),
        "writes_in_log": len(commands),
        "comments_in_store": len(comments),
        "comments_expected": args.reviewers * (args.writes // 2),
        "error_responses": len(errors),
        "errors": errors[:10],
        "integrity": integrity,
        "wall_s": round(wall, 1),
        "unloaded": {"decision": summary(base_decisions), "article_45": summary(base_views)},
        "loaded": {"decision": summary(decisions), "article_45": summary(views)} if decisions and views else {},
        "live_pages": args.watchers,
        "live_update": summary(delays) if delays else {},
        "live_updates_missed": missed,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
    }
    if decisions and views:
        result["p95_ratio"] = {
            "decision": round(result["loaded"]["decision"]["p95_ms"] / result["unloaded"]["decision"]["p95_ms"], 1),
            "article_45": round(
                result["loaded"]["article_45"]["p95_ms"] / result["unloaded"]["article_45"]["p95_ms"], 1
            ),
        }
    out = HERE / "output"
    out.mkdir(exist_ok=True)
    (out / "bench_serve.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    lost = expected - len(commands)
    late = max(delays, default=0.0) > LIVE_BOUND or missed > 0
    ok = not errors and lost == 0 and result["writes_answered"] == expected and integrity == "ok" and not late
    print(
        f"{'OK' if ok else 'FAILED'}: {len(commands)} of {expected} writes in the log, {len(errors)} error responses,"
        f" every write on {args.watchers} open pages within {max(delays, default=0.0):.2f} s (bound {LIVE_BOUND} s),"
        f" {missed} missed"
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
