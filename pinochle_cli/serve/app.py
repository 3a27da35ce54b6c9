"""The routes of the score page (Flask): the page, its live part, the record file, the style and script, and
the changes (a deal, undo, redo, the PIN). Nothing else is served.

A request whose Host is not one of this server's names (``Guard.hosts``: another site's name pointed at
this machine) is 400 before anything is read or changed. Every change is a POST that carries the form
token, comes from this server's own page (its Origin or Referer), and, where a PIN is set, from a phone
whose cookie shows it entered the PIN; a refused change is 403 and changes nothing. Bodies over
``MAX_BODY`` are 413, a field too long or too many fields 400.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, redirect, request

from ..errors import FormError, PinochleError, RecordError
from ..records.edit import redo_deal, undo_deal
from .form import add_deal, form_fields
from .pages import SCRIPT, STYLE, deal_form, live, page
from .security import CSRF_COOKIE, MAX_BODY, MAX_FIELDS, PIN_COOKIE, Guard, fields_ok
from .snapshot import Snapshot, read_bytes, read_snapshot, version_of

__all__ = ["create_app"]

SAID = {"added": "Deal added.", "undone": "The last deal was taken out (Redo puts it back).",
        "redone": "The deal was put back.", "pin": "PIN accepted: this phone may enter deals."}
# what the page's forms send
FORM_TYPE = "application/x-www-form-urlencoded"
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _text(status: int, text: str) -> Response:
    return Response(text + "\n", status=status, mimetype="text/plain")


class _Site:
    """The page over one record: every route is a method."""

    def __init__(self, path: str, guard: Guard) -> None:
        self.path, self.guard, self.title = path, guard, os.path.basename(path)

    @staticmethod
    def form_cookie() -> str:
        return request.cookies.get(CSRF_COOKIE) or ""

    def render(self, *, status: int = 200, values: Mapping[str, str] | None = None,
               errors: Mapping[str, str] | None = None, message: str | None = None,
               pin_said: str | None = None) -> Response:
        """The whole page as the record now is (a new browser gets its form cookie with it)."""
        snap = read_snapshot(self.path)
        cookie = self.form_cookie() or self.guard.new_form_cookie()
        token = self.guard.form_token(cookie)
        html = page(snap, title=self.title, token=token, can_change=self.guard.may_change(request.cookies),
                    form=_form(snap, token, values or {}, errors or {}), message=message, pin_said=pin_said)
        response = Response(html, status=status, mimetype="text/html")
        if not self.form_cookie():
            response.set_cookie(CSRF_COOKIE, cookie, httponly=True, samesite="Strict")
        return response

    def refused_post(self, needs_pin: bool = True) -> Response | None:
        """Why a post may not change anything (400, 403), or None."""
        if request.mimetype != FORM_TYPE:
            return _text(400, f"Bad request: expected a form ({FORM_TYPE}).")
        wrong = fields_ok(request.form)
        if wrong is not None:
            return _text(400, f"Bad request: {wrong}.")
        if not self.guard.same_origin(dict(request.headers), request.host) or not self.guard.form_ok(
                request.cookies, request.form.get("token")):
            return _text(403, "Refused: this form did not come from this page (reload the page and try again).")
        if needs_pin and not self.guard.may_change(request.cookies):
            return _text(403, "Refused: enter the PIN first; nothing was changed.")
        return None

    # ----------------------------------------------------------------- reading

    def index(self) -> Response:
        return self.render(message=SAID.get(request.args.get("said", "")))

    def live_part(self) -> Response:
        """204 while the record is at the version the page has; else its live part (and a fresh form)."""
        if request.args.get("v") == version_of(self.path):
            return Response(status=204)
        snap = read_snapshot(self.path)
        doc: dict[str, Any] = {"version": snap.version, "live": live(snap)}
        if self.guard.may_change(request.cookies) and self.form_cookie():
            doc["form"] = _form(snap, self.guard.form_token(self.form_cookie()), {}, {})
        return jsonify(doc)

    def record_file(self) -> Response:
        return Response(read_bytes(self.path), mimetype="text/plain")

    # ----------------------------------------------------------------- changes

    def deal(self) -> Any:
        refused = self.refused_post()
        if refused is not None:
            return refused
        values = {k: v for k, v in request.form.items() if k != "token"}
        try:
            add_deal(self.path, values)
        except FormError as exc:
            return self.render(status=422, values=values, errors=exc.errors)
        return redirect("/?said=added", code=303)

    def change(self, what: str) -> Any:
        refused = self.refused_post()
        if refused is not None:
            return refused
        try:
            (undo_deal if what == "undone" else redo_deal)(self.path)
        except RecordError as exc:
            return self.render(status=409, message=exc.detail)
        return redirect(f"/?said={what}", code=303)

    def pin(self) -> Any:
        refused = self.refused_post(needs_pin=False)
        if refused is not None:
            return refused
        said = self.guard.check_pin(request.form.get("pin", ""))
        if said != "ok":
            text = "Wrong PIN." if said == "wrong" else "Too many wrong PINs: wait a minute."
            return self.render(status=403 if said == "wrong" else 429, pin_said=text)
        response = redirect("/?said=pin", code=303)
        response.set_cookie(PIN_COOKIE, self.guard.writer_cookie(), httponly=True, samesite="Strict")
        return response


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


def _form(snap: Snapshot, token: str, values: Mapping[str, str], errors: Mapping[str, str]) -> str:
    record = snap.record
    if record.standing.status != "in-progress":
        return '<p class="over">The match is over: no more deals.</p>'
    return deal_form(form_fields(record), token, values, errors, record.sides[-1], record.rules.counter_total)


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
