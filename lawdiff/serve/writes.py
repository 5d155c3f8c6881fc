"""The review's writes from the browser: status, comment, assignee, corrections, the meeting.

A form names its change by id and carries the state the member saw
(:class:`lawdiff.review.targets.Expect`); a change since moved on is not
overwritten: the member is shown it as it is now (:class:`Stale`).  A form
posted by the page's script (header ``X-Lawdiff-Fetch: 1``) gets JSON with
the row's new review block; without the script, a redirect back to the row
(303), or a page saying why nothing was saved.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from lawdiff import i18n
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.report.html.markup import h
from lawdiff.review import CorrectionKind, Status, Store, Target, target
from lawdiff.review import pins as review_pins
from lawdiff.review.settings import AgendaOrder, set_agenda_order
from lawdiff.review.targets import Expect, StaleWrite
from lawdiff.serve import pages
from lawdiff.serve.auth import Action, clean_name, may, status_action
from lawdiff.serve.controls import RowContext, review_block, row_anchor, undone
from lawdiff.serve.endpoints import DISCUSSING, FETCH_HEADER, Endpoints, Refused, local, refusal, session_token
from lawdiff.serve.state import Located, Snapshot

COMMENT_MAX = 20_000


def status_asked(form: FormData) -> Action:
    """What the status form asks for, by the status it sends (an unknown one is refused by the endpoint)."""
    value = str(form.get("status", ""))
    return status_action(Status(value)) if value in {s.value for s in Status} else Action.QUERY


class Writes(Endpoints):
    """The POST endpoints that write to the store."""

    def _change(self, form: FormData) -> tuple[Snapshot, Located]:
        """The change a form names, as the corpus is now; a form on a text since changed is refused."""
        snap = self.ws.snapshot()
        found = snap.changes.get(str(form.get("change", "")))
        if found is None:
            now = _at_row(snap, str(form.get("pair", "")), str(form.get("row", "")))
            raise Stale(
                _(
                    "The text of this change was changed since you loaded the page (the draft was corrected): "
                    "nothing was saved. Here it is as it is now."
                ),
                snap,
                now,
            )
        return snap, found

    def _expect(self, form: FormData, status: bool = False, assignee: bool = False) -> Expect:
        expected = str(form.get("expect", ""))
        return Expect(
            status=Status(expected) if status and expected in {s.value for s in Status} else None,
            assignee=str(form.get("expect_assignee", "")) if assignee else None,
            old_hash=str(form.get("old_hash", "")),
            new_hash=str(form.get("new_hash", "")),
        )

    def _done(self, request: Request, name: str, form: FormData, snap: Snapshot, found: Located, said: str) -> Response:
        back = local(str(form.get("back", "")), pages.href(found))
        if request.headers.get(FETCH_HEADER) == "1":
            return self._block_json(request, name, snap, found, back, said, 200)
        return RedirectResponse(back, 303)

    def _block_json(
        self, request: Request, name: str, snap: Snapshot, found: Located, back: str, said: str, status: int
    ) -> Response:
        block, now = self.fresh_block(request, name, snap, found, urlsplit(back).path)
        return JSONResponse({"ok": status < 400, "message": said, "html": block, "status": now.value}, status)

    def _stale(self, request: Request, name: str, form: FormData, exc: Stale) -> Response:
        back = local(str(form.get("back", "")))
        if request.headers.get(FETCH_HEADER) == "1" and exc.found is not None:
            return self._block_json(request, name, exc.snap, exc.found, back, exc.message, 409)
        more: list[Any] = []
        if exc.found is not None:
            _version, view = self.ws.review(exc.snap)
            store = self.ws.store()
            ctx = RowContext(
                view,
                store.deciders(),
                self.chair(name),
                urlsplit(back).path,
                token=session_token(request),
                viewer=name,
                row_writes=store.row_writes(exc.found.change.id),
            )
            comp = exc.found.comparison
            more = [
                h("h2", None, pages.label(exc.found)),
                review_block(exc.found.change, comp.old, comp.new, ctx),
            ]
        bar = self._bar(request, name, exc.snap)
        return HTMLResponse(pages.message_page(_("Not saved"), bar, exc.message, *more, back=back), 409)

    def write(self, work: Callable[[Request, str, FormData], Response]) -> Callable[[Request, str, FormData], Response]:
        def handle(request: Request, name: str, form: FormData) -> Response:
            try:
                return work(request, name, form)
            except Stale as exc:
                return self._stale(request, name, form, exc)

        return handle

    def _decide(
        self, request: Request, name: str, form: FormData, write: Callable[[Store, Target], object], said: str
    ) -> Response:
        """Write to the change the form names (``write`` is given the store and the change as it is now);
        refused (:class:`Stale`) when the change moved on since the member saw it."""
        snap, found = self._change(form)
        tgt = target(found.comparison, found.change)
        try:
            self.ws.write(lambda store: write(store, tgt))
        except StaleWrite as exc:
            raise Stale(_as_it_is_now(exc.what), snap, found) from None
        return self._done(request, name, form, snap, found, said)

    def set_status(self, request: Request, name: str, form: FormData) -> Response:
        value = str(form.get("status", ""))
        if value not in {s.value for s in Status}:
            raise Refused(400, _("Unknown status {status!r}.").format(status=value))
        status = Status(value)
        expect = self._expect(form, status=True)
        if status is Status.QUERY and not may(self.chair(name), Action.DECIDE):
            # A member's query of a decided change keeps the decision and asks a chair about it.
            decided = self.ws.store().decision(str(form.get("change", "")))
            if decided is not None and decided.status not in (Status.OPEN, Status.QUERY):
                text = str(form.get("text", "")).replace("\r\n", "\n").strip()
                if len(text) > COMMENT_MAX:
                    raise Refused(400, _("The question is longer than {n} characters.").format(n=COMMENT_MAX))
                # What the store keeps is in the asker's language: it is what they wrote.
                asked = text or _("(queried without a comment)")
                return self._decide(
                    request,
                    name,
                    form,
                    lambda store, tgt: store.ask(tgt, asked, name, expect=expect),
                    _("Saved: a question on the decision ({status}) for the chairs to answer.").format(
                        status=terms.status(decided.status.value)
                    ),
                )
        return self._decide(
            request,
            name,
            form,
            lambda store, tgt: store.set_status(tgt, status, name, expect=expect),
            _("Saved: {status}.").format(status=terms.status(status.value)),
        )

    def comment(self, request: Request, name: str, form: FormData) -> Response:
        text = str(form.get("text", "")).replace("\r\n", "\n")
        if not text.strip():
            raise Refused(400, _("The comment is empty."))
        if len(text) > COMMENT_MAX:
            raise Refused(400, _("The comment is longer than {n} characters.").format(n=COMMENT_MAX))
        expect = self._expect(form)
        return self._decide(
            request,
            name,
            form,
            lambda store, tgt: store.add_comment(tgt, text, name, expect=expect),
            _("Comment added."),
        )

    def assign(self, request: Request, name: str, form: FormData) -> Response:
        raw = str(form.get("assignee", ""))
        who = clean_name(raw) if raw.strip() else ""
        if who is None:
            raise Refused(400, _("Give a name (up to 60 letters, no control characters), or nothing for nobody."))
        expect = self._expect(form, assignee=True)
        return self._decide(
            request,
            name,
            form,
            lambda store, tgt: store.assign(tgt, who, name, expect=expect),
            _("Assigned to {name}.").format(name=who) if who else _("Assigned to nobody."),
        )

    def undo(self, request: Request, name: str, form: FormData) -> Response:
        """Take back the row's last write (one's own; a chair's: anyone's), as a new logged write;
        refused with the row as it is now when someone wrote to it since."""
        write = str(form.get("undo", ""))
        snap, found = self._change(form)
        cid = found.change.id
        store = self.ws.store()
        last = store.row_writes(cid).get(cid)
        if last is None or last.write != write:
            raise Stale(_("This change was written to since you loaded the page: nothing was undone."), snap, found)
        if last.author != name and not may(self.chair(name), Action.UNDO_ANY):
            raise Refused(403, refusal(Action.UNDO_ANY))
        for e in store.log([cid]):
            if e.write == write and e.table == "decisions":
                before = Status((e.before or {}).get("status", Status.OPEN.value))
                after = Status((e.after or {}).get("status", Status.OPEN.value))
                # Undoing restores a status: only someone who may set it (a member's own query aside).
                own_query = before is Status.OPEN and after is Status.QUERY
                if before != after and not own_query and not may(self.chair(name), status_action(before)):
                    raise Refused(403, refusal(status_action(before)))
        try:
            self.ws.write(lambda s: s.undo_write(write, name, cid))
        except StaleWrite as exc:
            raise Stale(_as_it_is_now(exc.what), snap, found) from None
        return self._done(request, name, form, snap, found, undone(last.action))

    def comment_edit(self, request: Request, name: str, form: FormData) -> Response:
        text = str(form.get("text", "")).replace("\r\n", "\n")
        if not text.strip():
            raise Refused(400, _("The comment is empty: to remove it, press “Delete this comment”."))
        if len(text) > COMMENT_MAX:
            raise Refused(400, _("The comment is longer than {n} characters.").format(n=COMMENT_MAX))
        cid = self._own_comment(name, form)
        snap, found = self._change(form)
        self.ws.write(lambda s: s.edit_comment(cid, text, name))
        return self._done(request, name, form, snap, found, _("Comment edited (the log keeps the earlier text)."))

    def comment_delete(self, request: Request, name: str, form: FormData) -> Response:
        cid = self._own_comment(name, form)
        snap, found = self._change(form)
        self.ws.write(lambda s: s.delete_comment(cid, name))
        return self._done(request, name, form, snap, found, _("Comment deleted (the log keeps its text)."))

    def _own_comment(self, name: str, form: FormData) -> str:
        cid = str(form.get("comment", ""))
        mine = [c for c in self.ws.store().thread(str(form.get("change", ""))) if c.id == cid]
        if not mine:
            raise Refused(404, _("No such comment on this change (deleted meanwhile?): reload the page."))
        if mine[0].author != name:
            raise Refused(
                403, _("This comment is {name}'s: only its author may edit or delete it.").format(name=mine[0].author)
            )
        return cid

    def correct(self, request: Request, name: str, form: FormData) -> Response:
        snap, found = self._change(form)
        comp, ch = found.comparison, found.change
        corpus = snap.corpus
        forbid = str(form.get("forbid", ""))
        if forbid:
            o, _sep, n = forbid.partition(" ")
            pair, old, new = review_pins.forbid_sides(corpus, f"{comp.old}:{o}", f"{comp.new}:{n}")
            kind = CorrectionKind.FORBID
        else:
            given = str(form.get("pin", "")).split()
            if not given:
                raise Refused(
                    400, _("Name the clause to pin this row's clause to, as EDITION:ADDRESS (e.g. 2007:45D).")
                )
            editions = {g.partition(":")[0] for g in given}
            mine = ch.new if comp.new not in editions else ch.old
            side = comp.new if comp.new not in editions else comp.old
            specs = [*given, *(f"{side}:{a}" for a in mine)]
            pair, old, new = review_pins.sides(corpus, specs)
            if pair != (comp.old, comp.new):
                raise Refused(
                    400,
                    _(
                        "A correction from this row pins {old} to {new}; you named {given}. Name a clause of {other}."
                    ).format(
                        old=comp.old,
                        new=comp.new,
                        given=" ".join(given),
                        other=comp.old if side == comp.new else comp.new,
                    ),
                )
            kind = CorrectionKind.PIN
        sides = {"old": " ".join(f"{pair[0]}:{a}" for a in old), "new": " ".join(f"{pair[1]}:{a}" for a in new)}
        if kind is CorrectionKind.PIN:
            what = _("{old} is the same clause as {new}.").format(**sides)
        else:
            what = _("{old} is never paired with {new}.").format(**sides)
        back = local(str(form.get("back", "")), pages.href(found))
        if form.get("confirm") != "yes":
            fields = {k: str(form.get(k, "")) for k in ("change", "pair", "row", "back", "forbid", "pin")}
            bar = self._bar(request, name, snap)
            return HTMLResponse(pages.confirm_page(bar, what, fields, session_token(request), back))
        self.ws.write(lambda store: store.add_correction(kind, pair, old, new, name))
        # The alignment is made again with the correction; lead to where the clause now stands.
        snap = self.ws.snapshot()
        result = _by_address(snap, pair, new[0], old[0])
        return RedirectResponse(pages.href(result) if result else back, 303)

    def unpin(self, request: Request, name: str, form: FormData) -> Response:
        cid = str(form.get("correction", ""))
        if not re.fullmatch(r"[0-9a-f]{32}", cid):
            raise Refused(400, _("No such correction."))
        self.ws.write(lambda store: store.remove_corrections([cid], name))
        back = local(str(form.get("back", "")))
        snap = self.ws.snapshot()
        found = snap.changes.get(str(form.get("change", "")))
        return RedirectResponse(pages.href(found) if found else back, 303)

    def meeting_start(self, request: Request, name: str, form: FormData) -> Response:
        raw = str(form.get("date", "")) or datetime.date.today().isoformat()
        try:
            day = datetime.date.fromisoformat(raw).isoformat()
        except ValueError:
            raise Refused(400, _("{value!r} is not a date (YYYY-MM-DD).").format(value=raw)) from None
        people = []
        for a in str(form.get("attendees", "")).split(","):
            if a.strip():
                person = clean_name(a)
                if person is None:
                    raise Refused(400, _("{value!r} is not a name.").format(value=a.strip()))
                people.append(person)
        open_ = self.ws.store().open_meeting()
        if open_ is not None:
            raise Refused(
                409,
                _("The meeting of {date} is still open: end it with “End the meeting” on this page first.").format(
                    date=i18n.format_day(open_.date)
                ),
            )
        self.ws.write(lambda store: store.start_meeting(day, tuple(people), name))
        return RedirectResponse("/meeting", 303)

    def meeting_end(self, request: Request, name: str, form: FormData) -> Response:
        if self.ws.store().open_meeting() is None:
            raise Refused(409, _("No meeting is open: start one with “Start the meeting” on this page."))

        def end(store: Store) -> None:
            store.end_meeting(name)
            if store.mark(DISCUSSING) is not None:
                store.set_mark(DISCUSSING, "", name)

        self.ws.write(end)
        return RedirectResponse("/meeting", 303)

    def discuss(self, request: Request, name: str, form: FormData) -> Response:
        store = self.ws.store()
        if store.open_meeting() is None:
            raise Refused(409, _("No meeting is open: start one on the meeting page first."))
        _snap, found = self._change(form)
        self.ws.write(lambda store: store.set_mark(DISCUSSING, found.change.id, name))
        back = local(str(form.get("back", "")), pages.href(found))
        if request.headers.get(FETCH_HEADER) == "1":
            return JSONResponse({"ok": True, "message": _("Marked as now discussed.")})
        return RedirectResponse(back, 303)

    def agenda_order(self, request: Request, name: str, form: FormData) -> Response:
        """Set the agenda's order for every member (:class:`~lawdiff.review.settings.AgendaOrder`)."""
        wanted = str(form.get("order", ""))
        order = next((o for o in AgendaOrder if o.value == wanted), None)
        if order is None:
            raise Refused(
                400, _("No agenda order {order!r}: choose by article or most significant first.").format(order=wanted)
            )
        self.ws.write(lambda store: set_agenda_order(store, order, name))
        return RedirectResponse("/agenda", 303)


def _as_it_is_now(what: str) -> str:
    """The store's refusal of a write on a state since changed, and that the row is shown as it is now."""
    return _("{refusal}. Here it is as it is now.").format(refusal=what)


class Stale(Exception):
    """A write refused because what the member saw has changed; ``found`` is the change as it is now."""

    def __init__(self, message: str, snap: Snapshot, found: Located | None) -> None:
        super().__init__(message)
        self.message = message
        self.snap = snap
        self.found = found


def _at_row(snap: Snapshot, pair: str, row: str) -> Located | None:
    """The change that now stands at a row's anchor (a corrected draft gives it a new id)."""
    old, _sep, new = pair.partition(" ")
    for found in snap.changes.values():
        comp = found.comparison
        if (comp.old, comp.new) == (old, new) and found.article and row_anchor(found.change, old, new) == row:
            return found
    return None


def _by_address(snap: Snapshot, pair: tuple[str, str], new: str, old: str) -> Located | None:
    for side, address in (("new", new), ("old", old)):
        for found in snap.changes.values():
            comp = found.comparison
            if (comp.old, comp.new) == pair and found.article and address in getattr(found.change, side):
                return found
    return None
