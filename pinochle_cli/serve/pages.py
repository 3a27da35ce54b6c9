"""The page's HTML, rendered on the server (it reads with JavaScript off); its style and script are in ``assets``.

``page`` is the whole page; ``live`` the part that changes with the record (the standing, the chart,
the deals), which the script fetches again when the record's version changes; ``enter`` the part that
changes the record: what the last change did (``said``, where the page opens after a change), the form for the
next deal (``deal_form``, each refusal beside its field), undo and redo (``changes``: redo only when there is
something to redo), or the PIN form.

Every form that changes the record carries ``Hidden`` fields: the form token, the version of the record the
form shows and the deal it means, and an id of its own (``sent``) by which a form sent twice is recognised.
Every form's action ends in ``#said``: the page that answers it opens at the answer.

The table of deals has two layouts in one: every column on a wide screen; on a phone (below ``NARROW`` CSS
pixels) the deal's number, the bid, the result in a word and the totals, the sides by their initials, so that
it fits a 360-pixel screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from ..records import DealRecord
from .chart_svg import COLOURS, totals_svg
from .form import WHOLE_DEAL, FormField
from .snapshot import Snapshot

__all__ = ["NARROW", "Hidden", "changes", "deal_form", "enter", "live", "page", "pin_form", "said", "standing_words"]

# below this width (CSS pixels) the table of deals shows its narrow layout
NARROW = 600
# a result's word in the narrow layout
_SHORT = {"not-on-board": "no board", "conceded": "conceded", "no-trump": "no trump"}


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _pair(values: Sequence[int] | None) -> str:
    return "" if values is None else " / ".join(str(v) for v in values)


def _deals_word(n: int) -> str:
    return f"{n} deal{'s' if n != 1 else ''}"


def _state(snap: Snapshot) -> str:
    """The standing in words: who won and why, the draw, or the deals played and the next dealer."""
    b = snap.brief
    why = "" if b.ended is None else f": {_e(b.ended)}"
    if b.status == "won":
        return f"{_e(b.winner)} won{why}"
    if b.status == "draw":
        return f"A draw{why}"
    state = f"{_deals_word(b.deals_played)} played"
    state += "" if b.deals_left is None else f", {b.deals_left} to play"
    return state + ("" if b.next_dealer is None else f". Next dealer: <b>{_e(b.next_dealer)}</b>")


def standing_words(snap: Snapshot) -> str:
    """The standing in one sentence, for the answer to a change: ``Now: Us 480, Them -130; Di deals next.``"""
    b = snap.brief
    scores = ", ".join(f"{s} {t}" for s, t in zip(b.sides, b.totals, strict=True))
    if b.status == "won":
        return f"Now: {scores}; {b.winner} won: {b.ended}."
    if b.status == "draw":
        return f"Now: {scores}; a draw: {b.ended}."
    return f"Now: {scores}" + ("" if b.next_dealer is None else f"; {b.next_dealer} deals next") + "."


def _standing(snap: Snapshot) -> str:
    b = snap.brief
    needs = b.needs or (None,) * len(b.sides)
    rows = []
    for i, (side, total, need) in enumerate(zip(b.sides, b.totals, needs, strict=True)):
        go = "" if need is None else f"<small>{need} to go</small>"
        rows.append(f'<div class="side c{i % len(COLOURS)}"><span class="name">'
                    f'{_e(side)}</span><span class="total">{total}</span>{go}</div>')
    goal = f"game to {b.target}" if b.target is not None else "fixed deals"
    return (f'<section class="standing" aria-live="polite"><div class="sides">{"".join(rows)}</div>'
            f'<p class="state">{_state(snap)}.</p><p class="goal">{_e(snap.record.rules.name)}, {goal}</p></section>')


def _initials(name: str) -> str:
    """A side's short name for the narrow table: North-South → NS; a short name stays."""
    letters = "".join(w[0] for w in name.replace("-", " ").split() if w)
    return letters.upper() if len(name) > 4 and len(letters) > 1 else name[:4]


def _both(wide: object, narrow: object) -> str:
    """A cell's text in the wide layout and in the narrow one."""
    if str(wide) == str(narrow):
        return _e(wide)
    return f'<span class="w">{_e(wide)}</span><span class="n">{_e(narrow)}</span>'


def _row(d: DealRecord) -> str:
    bid = " ".join(p for p in (d.bidder or "", "" if d.bid is None else str(d.bid),
                               "" if d.trump is None else d.trump.symbol) if p)
    result = d.score.result or ""
    cells = [(d.number, ""), (d.dealer or "", "w"), (bid, "b"), ("" if d.redeal else _pair(d.meld), "w"),
             (_pair(d.counters), "w"), (_both(result, _SHORT.get(result, result)), "r"), (_pair(d.score.points), "w"),
             *((t, "") for t in d.standing.totals)]
    return "<tr>" + "".join(f'<td class="{kind}">{c if kind == "r" else _e(c)}</td>' if kind else f"<td>{_e(c)}</td>"
                            for c, kind in cells) + "</tr>"


def _deals(snap: Snapshot) -> str:
    record = snap.record
    if not record.deals:
        return '<p class="empty">No deals yet.</p>'
    heads = [("#", ""), ("dealer", "w"), ("bid", "b"), ("meld", "w"), ("counters", "w"), ("result", "r"),
             ("points", "w"), *((_both(s, _initials(s)), "s") for s in record.sides)]
    head = "".join(f'<th class="{kind}">{h if kind == "s" else _e(h)}</th>' if kind else f"<th>{_e(h)}</th>"
                   for h, kind in heads)
    body = "".join(_row(d) for d in reversed(record.deals))
    names = ", ".join(f"{_initials(s)} {s}" for s in record.sides if _initials(s) != s)
    legend = (f'<span class="w">meld, counters and points: {_e(" / ".join(record.sides))}; latest first</span>'
              f'<span class="n">latest first{"; " + _e(names) if names else ""}</span>')
    return (f'<div class="deals"><table><caption>{legend}</caption><thead><tr>{head}</tr></thead><tbody>{body}'
            "</tbody></table></div>")


def live(snap: Snapshot) -> str:
    """The standing, the chart and the deals (and the record's problems, if it has any)."""
    problems = "".join(f"<li>{_e(p)}</li>" for p in snap.problems)
    warn = f'<ul class="problems">{problems}</ul>' if problems else ""
    legend = "".join(f'<span class="c{i % len(COLOURS)}">&#9632; {_e(s)}</span> '
                     for i, s in enumerate(snap.record.sides))
    return (_standing(snap) + warn + f'<section class="graph"><p class="legend">{legend}</p>'
            f"{totals_svg(snap.record)}</section>" + _deals(snap))


# ----------------------------------------------------------------------------------------------- the forms

@dataclass(frozen=True)
class Hidden:
    """What a form that changes the record carries besides its fields."""

    token: str
    # the version of the record the form shows, and the deal it means (added, taken out or put back)
    version: str
    deal: int
    # this form's own id: sent twice, it is applied once
    sent: str

    def html(self) -> str:
        return "".join(f'<input type="hidden" name="{name}" value="{_e(value)}">'
                       for name, value in (("token", self.token), ("version", self.version), ("deal", self.deal),
                                           ("sent", self.sent)))


def _input(f: FormField, value: str | None, first_error: bool) -> str:
    shown = value if value is not None else (f.default or "")
    focus = " autofocus" if first_error else ""
    invalid = ' aria-invalid="true"' if value is not None and first_error else ""
    if f.choices is not None:
        texts = (f.blank, *(f.shown or f.choices))
        options = "".join(f'<option value="{_e(c)}"{" selected" if c == shown else ""}>{_e(t)}</option>'
                          for c, t in zip(("", *f.choices), texts, strict=True))
        return f'<select id="f-{_e(f.name)}" name="{_e(f.name)}"{focus}{invalid}>{options}</select>'
    kind = ' inputmode="numeric" pattern="[0-9]*"' if f.number else ""
    return f'<input id="f-{_e(f.name)}" name="{_e(f.name)}" value="{_e(shown)}" maxlength="40"{kind}{focus}{invalid}>'


def deal_form(fields: Sequence[FormField], hidden: Hidden, values: Mapping[str, str], errors: Mapping[str, str],
              inferred: str | None, total: int) -> str:
    """The next deal's fields; ``values``: what was typed (kept when refused); ``errors``: by field name, each
    shown beside its field (the first one focused) and listed at the top."""
    rows = []
    first = next((f.name for f in fields if f.name in errors), None)
    for f in fields:
        err = errors.get(f.name)
        note = f'<span class="error" id="e-{_e(f.name)}" role="alert">{_e(err)}</span>' if err else ""
        rows.append(f'<label for="f-{_e(f.name)}">{_e(f.label)}</label>{_input(f, values.get(f.name), f.name == first)}'
                    f"{note}")
    if inferred is not None:
        # after the counters typed (a deal's other fields may follow them)
        at = max((i + 1 for i, f in enumerate(fields) if f.field == "counters"), default=len(rows))
        rows.insert(at, f'<p class="inferred">{_e(inferred)}\'s counters: <output id="inferred">the rest of '
                        f"{total}</output></p>")
    whole = errors.get(WHOLE_DEAL)
    top = f'<p class="error" role="alert">{_e(whole)}</p>' if whole else ""
    return (f'<form method="post" action="/deal#said" id="deal" data-total="{total}">'
            f'<h2>Deal {hidden.deal}</h2>{top}{hidden.html()}{"".join(rows)}'
            '<button type="submit">Add the deal</button></form>')


def changes(undo: Hidden | None, redo: Hidden | None) -> str:
    """Undo (when there is a deal) and redo (when the history holds a deal to put back)."""
    forms = []
    if undo is not None:
        forms.append(f'<form method="post" action="/undo#said">{undo.html()}<button>Undo deal {undo.deal}</button>'
                     "</form>")
    if redo is not None:
        forms.append(f'<form method="post" action="/redo#said">{redo.html()}<button>Redo (put deal {redo.deal} '
                     "back)</button></form>")
    return f'<div class="changes" id="changes">{"".join(forms)}</div>'


def pin_form(token: str) -> str:
    return (f'<form method="post" action="/pin#said" class="pin"><input type="hidden" name="token" '
            f'value="{_e(token)}"><label for="f-pin">PIN to enter deals</label><input id="f-pin" name="pin" '
            'inputmode="numeric" maxlength="12" autocomplete="off"><button>Enter</button></form>')


def said(message: str | None, *, problem: bool = False) -> str:
    """What the last change did (or why it was refused): where the page opens after a change."""
    kind = "error" if problem else "message"
    role = "alert" if problem else "status"
    text = f'<p class="{kind}" role="{role}">{_e(message)}</p>' if message else ""
    return f'<div id="said">{text}</div>'


def enter(said_html: str, form: str, changes_html: str) -> str:
    return f'<section class="enter">{said_html}{form}{changes_html}</section>'


def page(snap: Snapshot, *, title: str, enter_html: str) -> str:
    """The whole page: the live part and ``enter_html`` (``enter``, or the PIN form)."""
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><link rel=\"stylesheet\" href=\"/app.css\">"
            '<noscript><meta http-equiv="refresh" content="10"></noscript></head>'
            f'<body><header><h1>{_e(title)}</h1></header><main data-version="{_e(snap.version)}">'
            f'<div id="live">{live(snap)}</div>{enter_html}</main>'
            '<footer><a href="/record">the record file</a></footer><script src="/app.js"></script></body></html>')
