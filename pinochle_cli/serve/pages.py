"""The page's HTML, rendered on the server (it reads with JavaScript off), and the style and script it loads
from this server only.

``page`` is the whole page; ``live`` the part that changes with the record (the standing, the chart,
the deals), which the script fetches again when the record's version changes; ``deal_form`` the
form for the next deal, each refusal beside its field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from .chart_svg import COLOURS, totals_svg
from .form import FormField
from .snapshot import Snapshot

__all__ = ["SCRIPT", "STYLE", "deal_form", "live", "page"]


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _pair(values: Sequence[int] | None) -> str:
    return "" if values is None else " / ".join(str(v) for v in values)


def _standing(snap: Snapshot) -> str:
    b = snap.brief
    needs = b.needs or (None,) * len(b.sides)
    rows = []
    for i, (side, total, need) in enumerate(zip(b.sides, b.totals, needs, strict=True)):
        go = "" if need is None else f"<small>{need} to go</small>"
        rows.append(f'<div class="side c{i % len(COLOURS)}"><span class="name">'
                    f'{_e(side)}</span><span class="total">{total}</span>{go}</div>')
    if b.status == "won":
        state = f"{_e(b.winner)} won"
    elif b.status == "draw":
        state = "A draw"
    else:
        state = f"{b.deals_played} deal{'s' if b.deals_played != 1 else ''} played"
        state += "" if b.deals_left is None else f", {b.deals_left} to play"
        state += "" if b.next_dealer is None else f". Next dealer: <b>{_e(b.next_dealer)}</b>"
    goal = f"game to {b.target}" if b.target is not None else "fixed deals"
    return (f'<section class="standing" aria-live="polite"><div class="sides">{"".join(rows)}</div>'
            f'<p class="state">{state}.</p><p class="goal">{_e(snap.record.rules.name)}, {goal}</p></section>')


def _deals(snap: Snapshot) -> str:
    record = snap.record
    if not record.deals:
        return '<p class="empty">No deals yet.</p>'
    heads = ["#", "dealer", "bid", "meld", "counters", "result", "points", *record.sides]
    body = []
    for d in reversed(record.deals):
        bid = " ".join(p for p in (d.bidder or "", "" if d.bid is None else str(d.bid),
                                   "" if d.trump is None else d.trump.symbol) if p)
        cells = [d.number, d.dealer or "", bid, "" if d.redeal else _pair(d.meld), _pair(d.counters),
                 d.score.result or "", _pair(d.score.points), *d.standing.totals]
        body.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    legend = f"meld, counters and points: {_e(' / '.join(record.sides))}; latest first"
    return (f'<div class="deals"><table><caption>{legend}</caption><thead><tr>'
            + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr></thead><tbody>" + "".join(body)
            + "</tbody></table></div>")


def live(snap: Snapshot) -> str:
    """The standing, the chart and the deals (and the record's problems, if it has any)."""
    problems = "".join(f"<li>{_e(p)}</li>" for p in snap.problems)
    warn = f'<ul class="problems">{problems}</ul>' if problems else ""
    legend = "".join(f'<span class="c{i % len(COLOURS)}">&#9632; {_e(s)}</span> '
                     for i, s in enumerate(snap.record.sides))
    return (_standing(snap) + warn + f'<section class="graph"><p class="legend">{legend}</p>'
            f"{totals_svg(snap.record)}</section>" + _deals(snap))


def _input(f: FormField, value: str | None) -> str:
    shown = value if value is not None else (f.default or "")
    if f.choices is not None:
        texts = (f.blank, *(f.shown or f.choices))
        options = "".join(f'<option value="{_e(c)}"{" selected" if c == shown else ""}>{_e(t)}</option>'
                          for c, t in zip(("", *f.choices), texts, strict=True))
        return f'<select id="f-{_e(f.name)}" name="{_e(f.name)}">{options}</select>'
    kind = ' inputmode="numeric" pattern="[0-9]*"' if f.number else ""
    return f'<input id="f-{_e(f.name)}" name="{_e(f.name)}" value="{_e(shown)}" maxlength="40"{kind}>'


def deal_form(fields: Sequence[FormField], token: str, values: Mapping[str, str], errors: Mapping[str, str],
              inferred: str | None, total: int) -> str:
    """The next deal's fields; ``values``: what was typed (kept when refused); ``errors``: by field name."""
    rows = []
    for f in fields:
        err = errors.get(f.name)
        note = f'<span class="error" role="alert">{_e(err)}</span>' if err else ""
        rows.append(f'<label for="f-{_e(f.name)}">{_e(f.label)}</label>{_input(f, values.get(f.name))}{note}')
    if inferred is not None:
        # after the counters typed (a deal's other fields may follow them)
        at = max((i + 1 for i, f in enumerate(fields) if f.field == "counters"), default=len(rows))
        rows.insert(at, f'<p class="inferred">{_e(inferred)}\'s counters: <output id="inferred">the rest of '
                        f"{total}</output></p>")
    whole = errors.get("deal")
    top = f'<p class="error" role="alert">{_e(whole)}</p>' if whole else ""
    return (f'<form method="post" action="/deal" id="deal" data-total="{total}">{top}'
            f'<input type="hidden" name="token" value="{_e(token)}">{"".join(rows)}'
            '<button type="submit">Add the deal</button></form>')


def _changes(token: str) -> str:
    hidden = f'<input type="hidden" name="token" value="{_e(token)}">'
    return (f'<div class="changes"><form method="post" action="/undo">{hidden}<button>Undo the last deal</button>'
            f'</form><form method="post" action="/redo">{hidden}<button>Redo</button></form></div>')


def _pin_form(token: str, said: str | None) -> str:
    note = f'<p class="error" role="alert">{_e(said)}</p>' if said else ""
    return (f'<form method="post" action="/pin" class="pin">{note}<input type="hidden" name="token" '
            f'value="{_e(token)}"><label for="f-pin">PIN to enter deals</label><input id="f-pin" name="pin" '
            'inputmode="numeric" maxlength="12" autocomplete="off"><button>Enter</button></form>')


def page(snap: Snapshot, *, title: str, token: str, can_change: bool, form: str, message: str | None = None,
         pin_said: str | None = None) -> str:
    """The whole page; ``form``: the deal form (``deal_form``), shown to a phone that may change the record."""
    said = f'<p class="message" role="status">{_e(message)}</p>' if message else ""
    changes = f"{said}{form}{_changes(token)}" if can_change else _pin_form(token, pin_said)
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><link rel=\"stylesheet\" href=\"/app.css\">"
            '<noscript><meta http-equiv="refresh" content="10"></noscript></head>'
            f'<body><header><h1>{_e(title)}</h1></header><main data-version="{_e(snap.version)}">'
            f'<div id="live">{live(snap)}</div><section class="enter">{changes}</section></main>'
            '<footer><a href="/record">the record file</a></footer><script src="/app.js"></script></body></html>')


# each side's colour, as in the chart (classes: the page allows no inline style)
_SIDE_COLOURS = "".join(f".side.c{i}{{border-color:{c}}}.legend .c{i}{{color:{c}}}" for i, c in enumerate(COLOURS))

STYLE = _SIDE_COLOURS + """
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;color:#111;background:#fafafa}
header{background:#234;color:#fff;padding:.5rem 1rem}h1{font-size:1.1rem;margin:0;word-break:break-all}
main{padding:.5rem;display:grid;grid-template-columns:minmax(0,1fr);gap:.75rem;max-width:1600px;margin:auto}
main>*{min-width:0}
.sides{display:flex;flex-wrap:wrap;gap:.5rem}.side{flex:1 1 8rem;background:#fff;border-left:.4rem solid;
padding:.4rem .6rem;display:flex;flex-direction:column}.side .name{font-weight:600}
.side .total{font-size:2.2rem;font-weight:700;line-height:1.1}.state{font-size:1.05rem;margin:.4rem 0}
.goal{color:#555;margin:0}.graph{background:#fff;padding:.4rem}.chart{width:100%;height:auto;font-size:13px}
.chart .zero{stroke:#999}.chart .target{stroke:#333;stroke-dasharray:4 4}.legend span{margin-right:.8rem}
.deals{overflow-x:auto;background:#fff}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{padding:.25rem .4rem;text-align:right;border-bottom:1px solid #ddd;white-space:nowrap}
caption{text-align:left;color:#555;padding:.3rem}form{display:grid;gap:.3rem;background:#fff;padding:.6rem}
label{font-weight:600;margin-top:.3rem}input,select,button{font-size:1.05rem;padding:.45rem;width:100%}
button{background:#234;color:#fff;border:0;border-radius:.3rem;margin-top:.4rem}
.changes{display:flex;gap:.5rem}.changes form{flex:1;padding:.3rem}.error{color:#b00020;font-weight:600}
.message{background:#e7f4e4;padding:.4rem}.problems{color:#b00020}footer{padding:1rem;text-align:center}
@media (min-width:1100px){main{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}#live{grid-column:1}
.enter{grid-column:2}.side .total{font-size:3.5rem}body{font-size:18px}}
"""

# every second: the record's version; when it changed, the live part again (no reload)
SCRIPT = """
(function(){
  var main=document.querySelector('main');
  function poll(){
    fetch('/live?v='+encodeURIComponent(main.dataset.version),{cache:'no-store'}).then(function(r){
      if(r.status!==200){return null;}return r.json();
    }).then(function(doc){
      if(!doc){return;}
      main.dataset.version=doc.version;
      document.getElementById('live').innerHTML=doc.live;
      var form=document.getElementById('deal');
      if(form&&doc.form&&!form.dataset.touched){form.outerHTML=doc.form;wire();}
    }).catch(function(){}).then(function(){setTimeout(poll,1000);});
  }
  function wire(){
    var form=document.getElementById('deal');if(!form){return;}
    // a refused deal's fields, as typed: kept until sent again
    if(form.querySelector('.error')){form.dataset.touched='1';}
    var out=document.getElementById('inferred');
    form.addEventListener('input',function(){
      form.dataset.touched='1';if(!out){return;}
      var sum=0,any=false;
      form.querySelectorAll('input[name^="counters:"]').forEach(function(i){
        if(/^[0-9]+$/.test(i.value)){sum+=parseInt(i.value,10);any=true;}});
      var total=parseInt(form.dataset.total,10);
      out.textContent=any?String(total-sum):'the rest of '+total;
    });
  }
  wire();setTimeout(poll,1000);
})();
"""
