"""The routes of the score page (Flask): the page, its live part, the record file, the style and script, and
the changes (a deal, undo, redo, the PIN). Nothing else is served.

A request whose Host is not one of this server's names (``Guard.hosts``: another site's name pointed at
this machine), or is not a host name at all, is 400 before anything is read or changed. Every change is a POST
that carries the form token, comes from this server's own page (its Origin or Referer), and, where a PIN is set,
from a phone whose cookie shows it entered the PIN; a refused change is 403 and changes nothing. Bodies over
``MAX_BODY`` are 413; a field too long, too many fields, a field given twice (or a JSON key) 400.

Every change names the version of the record its form showed and the deal it means (``Hidden``): a record
changed since is not changed (409, "the sheet changed: here it is now", the page showing it, a deal's fields
kept as typed). A form sent twice (a double tap, a reload) is recognised by its own id and applied once: the
second answer is the first one's. Changes are made one at a time.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, redirect, request

from ..errors import FormError, PinochleError, RecordError, StaleRecordError
from ..records.edit import redo_deal, undo_deal
from ..records.entry import deal_summary
from ..records.version import Expected
from .assets import SCRIPT, STYLE
from .form import WHOLE_DEAL, add_deal, form_fields
from .pages import Hidden, changes, deal_form, enter, live, page, pin_form, said, standing_words
from .security import (
    CSRF_COOKIE,
    MAX_BODY,
    MAX_FIELDS,
    PIN_COOKIE,
    Guard,
    fields_ok,
    json_fields,
)
from .snapshot import Snapshot, read_bytes, read_snapshot, version_of

__all__ = ["create_app"]

SAID = {"added": "Deal {n} added.", "again": "Deal {n} was added once (this form was sent again: nothing more "
        "was changed).", "undone": "Deal {n} was taken out (Redo puts it back).", "redone": "Deal {n} was put back.",
        "pin": "PIN accepted: this phone may enter deals."}
STALE = ("The sheet changed: here it is now. Nothing was {what} (another phone or a terminal changed the record "
         "after this page was opened); check the deals above and send it again if it is still meant.")
# what the page's forms send, and what a script may send
FORM_TYPE = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"
# the fields of a change that are not the deal's
CONTROL = ("token", "version", "deal", "sent")
# forms remembered as applied (the oldest forgotten first)
APPLIED = 512
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _text(status: int, text: str) -> Response:
    return Response(text + "\n", status=status, mimetype="text/plain")


def _after(said_as: str, number: int) -> Any:
    """The answer to a change: the page, opened at what the change did."""
    return redirect(f"/?said={said_as}&n={number}#said", code=303)


class _Site:
    """The page over one record: every route is a method."""

    def __init__(self, path: str, guard: Guard) -> None:
        self.path, self.guard = path, guard
        # one change at a time; the forms applied, by their id: what was done and to which deal
        self.changing = threading.Lock()
        self.applied: OrderedDict[str, tuple[str, int]] = OrderedDict()

    @staticmethod
    def form_cookie() -> str:
        return request.cookies.get(CSRF_COOKIE) or ""

    def hidden(self, snap: Snapshot, deal: int, cookie: str) -> Hidden:
        return Hidden(self.guard.form_token(cookie), snap.version, deal, secrets.token_urlsafe(12))

    def deal_part(self, snap: Snapshot, cookie: str, values: Mapping[str, str], errors: Mapping[str, str]) -> str:
        """The next deal's form, naming the version shown (the match over: says so)."""
        record = snap.record
        if record.standing.status != "in-progress":
            return '<p class="over" id="deal">The match is over: no more deals.</p>'
        return deal_form(form_fields(record), self.hidden(snap, len(record.deals) + 1, cookie), values, errors,
                         record.sides[-1], record.rules.counter_total)

    def changes_part(self, snap: Snapshot, cookie: str) -> str:
        """Undo the last deal (if any) and redo (if the history holds a deal to put back)."""
        n = len(snap.record.deals)
        return changes(self.hidden(snap, n, cookie) if n else None,
                       self.hidden(snap, n + 1, cookie) if snap.can_redo else None)

    def render(self, *, status: int = 200, values: Mapping[str, str] | None = None,
               errors: Mapping[str, str] | None = None, message: str | None = None, problem: bool = False) -> Response:
        """The whole page as the record now is (a new browser gets its form cookie with it)."""
        snap = read_snapshot(self.path)
        cookie = self.form_cookie() or self.guard.new_form_cookie()
        said_html = said(message, problem=problem)
        if self.guard.may_change(request.cookies):
            body = enter(said_html, self.deal_part(snap, cookie, values or {}, errors or {}),
                         self.changes_part(snap, cookie))
        else:
            body = enter(said_html, pin_form(self.guard.form_token(cookie)), "")
        response = Response(page(snap, title=snap.record.name, enter_html=body), status=status, mimetype="text/html")
        if not self.form_cookie():
            response.set_cookie(CSRF_COOKIE, cookie, httponly=True, samesite="Strict")
        return response

    def sent_fields(self) -> dict[str, str] | Response:
        """The fields a post sends (a form, or a JSON object): 400 when there are too many, one is too long or
        given twice."""
        if request.mimetype == JSON_TYPE:
            fields = json_fields(request.get_data(cache=True))
            if isinstance(fields, str):
                return _text(400, f"Bad request: {fields}.")
            wrong = fields_ok(fields, list(fields))
        elif request.mimetype == FORM_TYPE:
            fields = dict(request.form.items())
            wrong = fields_ok(fields, [name for name, _ in request.form.items(multi=True)])
        else:
            return _text(400, f"Bad request: expected a form ({FORM_TYPE}) or JSON.")
        return _text(400, f"Bad request: {wrong}.") if wrong is not None else fields

    def refused_post(self, fields: Mapping[str, str], needs_pin: bool = True) -> Response | None:
        """Why a post may not change anything (403), or None."""
        if not self.guard.same_origin(dict(request.headers), request.host) or not self.guard.form_ok(
                request.cookies, fields.get("token")):
            return _text(403, "Refused: this form did not come from this page (reload the page and try again).")
        if needs_pin and not self.guard.may_change(request.cookies):
            return _text(403, "Refused: enter the PIN first; nothing was changed.")
        return None

    def checked(self, needs_pin: bool = True) -> tuple[dict[str, str], Expected | None, str] | Response:
        """A change's fields, what it was made from (None for the PIN) and its own id; or the refusal."""
        fields = self.sent_fields()
        if isinstance(fields, Response):
            return fields
        refused = self.refused_post(fields, needs_pin)
        if refused is not None:
            return refused
        if not needs_pin:
            return fields, None, ""
        version, deal, sent = (fields.get(k, "") for k in ("version", "deal", "sent"))
        if not (version and deal.isdigit() and sent) or len(deal) > 6:
            return _text(400, "Bad request: a change names the version of the page it was made on (version, deal "
                              "and sent); reload the page and try again.")
        return fields, Expected(version, int(deal)), sent

    def remember(self, sent: str, what: str, number: int) -> None:
        self.applied[sent] = (what, number)
        while len(self.applied) > APPLIED:
            self.applied.popitem(last=False)

    # ----------------------------------------------------------------- reading

    def index(self) -> Response:
        what, n = request.args.get("said", ""), request.args.get("n", "")
        return self.render(message=self.said_text(what, int(n) if n.isdigit() and len(n) < 7 else 0))

    def said_text(self, what: str, n: int) -> str | None:
        """What a change did, with the deal added and the standing now."""
        if what not in SAID:
            return None
        text = SAID[what].format(n=n)
        if what == "pin":
            return text
        snap = read_snapshot(self.path)
        record = snap.record
        if what in ("added", "again", "redone") and 0 < n <= len(record.deals):
            text += " " + deal_summary(record, record.deals[n - 1]).removeprefix(f"Deal {n}: ")
        return f"{text} {standing_words(snap)}"

    def live_part(self) -> Response:
        """204 while the record is at the version the page has; else its live part (and fresh forms)."""
        if request.args.get("v") == version_of(self.path):
            return Response(status=204)
        snap = read_snapshot(self.path)
        doc: dict[str, Any] = {"version": snap.version, "live": live(snap)}
        cookie = self.form_cookie()
        if self.guard.may_change(request.cookies) and cookie:
            doc["form"] = self.deal_part(snap, cookie, {}, {})
            doc["changes"] = self.changes_part(snap, cookie)
        return jsonify(doc)

    def record_file(self) -> Response:
        return Response(read_bytes(self.path), mimetype="text/plain")

    # ----------------------------------------------------------------- changes

    def deal(self) -> Any:
        checked = self.checked()
        if isinstance(checked, Response):
            return checked
        fields, expect, sent = checked
        values = {k: v for k, v in fields.items() if k not in CONTROL}
        with self.changing:
            if sent in self.applied:
                return _after("again", self.applied[sent][1])
            try:
                record = add_deal(self.path, values, expect)
            except StaleRecordError:
                return self.render(status=409, values=values, message=STALE.format(what="added"), problem=True)
            except FormError as exc:
                # a refusal of no one field (the folder read-only, say) is said at the form's top
                beside = any(name != WHOLE_DEAL for name in exc.errors)
                return self.render(status=422, values=values, errors=exc.errors, problem=True,
                                   message=f"Not added: see the {'field marked' if beside else 'reason'} below.")
            self.remember(sent, "added", len(record.deals))
        return _after("added", len(record.deals))

    def change(self, what: str) -> Any:
        checked = self.checked()
        if isinstance(checked, Response):
            return checked
        _fields, expect, sent = checked
        with self.changing:
            if sent in self.applied:
                done, number = self.applied[sent]
                return _after(done, number)
            try:
                made = (undo_deal if what == "undone" else redo_deal)(self.path, expect=expect)
            except StaleRecordError:
                return self.render(status=409, message=STALE.format(what="undone" if what == "undone" else "put back"),
                                   problem=True)
            except RecordError as exc:
                return self.render(status=409, message=exc.detail, problem=True)
            self.remember(sent, what, made.number)
        return _after(what, made.number)

    def pin(self) -> Any:
        checked = self.checked(needs_pin=False)
        if isinstance(checked, Response):
            return checked
        fields = checked[0]
        said_as, wait = self.guard.check_pin(fields.get("pin", ""), request.remote_addr or "")
        if said_as != "ok":
            text = "Wrong PIN." if said_as == "wrong" else "Too many wrong PINs from this phone."
            if wait > 0:
                text += f" This phone may try again in {wait:.0f} second{'s' if round(wait) != 1 else ''}."
            refused = self.render(status=403 if said_as == "wrong" else 429, message=text, problem=True)
            if said_as == "wait":
                refused.headers["Retry-After"] = str(max(1, round(wait)))
            return refused
        taken: Any = redirect("/?said=pin#said", code=303)
        taken.set_cookie(PIN_COOKIE, self.guard.writer_cookie(), httponly=True, samesite="Strict")
        return taken


def create_app(path: str, guard: Guard) -> Flask:
    """The application over the record at ``path``; ``guard``: its PIN and keys."""
    app = Flask(__name__, static_folder=None)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, MAX_FORM_MEMORY_SIZE=MAX_BODY, MAX_FORM_PARTS=MAX_FIELDS)
    site = _Site(path, guard)
    for rule, view in (("/", site.index), ("/live", site.live_part), ("/record", site.record_file),
                       ("/app.css", lambda: Response(STYLE, mimetype="text/css")),
                       ("/app.js", lambda: Response(SCRIPT, mimetype="text/javascript"))):
        app.add_url_rule(rule, rule, view, methods=["GET"])
    for rule, view in (("/deal", site.deal), ("/undo", lambda: site.change("undone")),
                       ("/redo", lambda: site.change("redone")), ("/pin", site.pin)):
        app.add_url_rule(rule, rule, view, methods=["POST"])
    _errors(app)

    @app.before_request
    def known_host() -> Response | None:
        header = request.headers.get("Host", "")
        if guard.host_ok(header):
            return None
        return _text(400, f"Bad request: the host {header[:80]!r} is not this server's; open the address the "
                          "server printed.")

    return app


def _errors(app: Flask) -> None:
    """Every error a short plain text; every answer with the headers that keep it to this page."""
    for status, text in ((400, "Bad request."), (404, "Not found: this server serves the score page only."),
                         (405, "Method not allowed."), (413, f"Request too large (at most {MAX_BODY} bytes)."),
                         (500, "Internal error.")):
        app.register_error_handler(status, lambda _exc, s=status, t=text: _text(s, t))

    # the record became unreadable while served (removed, broken by hand): said, not a traceback
    app.register_error_handler(PinochleError, lambda exc: _text(503, f"The record cannot be read now: {exc}"))

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Cache-Control"] = "no-store"
        return response
