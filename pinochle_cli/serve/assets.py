"""The page's style and script, served from this server only (the page's Content-Security-Policy allows nothing
else).

The script asks once a second whether the record's version changed, and only then takes the live part, a fresh
deal form (unless one is being filled in) and fresh undo and redo buttons: every form then names the version the
phone shows. After a refused deal it brings the first refused field, with its message, to the middle of the
screen.
"""

from __future__ import annotations

from .chart_svg import COLOURS
from .pages import NARROW

__all__ = ["SCRIPT", "STYLE"]

# each side's colour, as in the chart (classes: the page allows no inline style)
_SIDE_COLOURS = "".join(f".side.c{i}{{border-color:{c}}}.legend .c{i}{{color:{c}}}" for i, c in enumerate(COLOURS))

STYLE = _SIDE_COLOURS + """
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;color:#111;background:#fafafa}
header{background:#234;color:#fff;padding:.5rem 1rem}h1{font-size:1.1rem;margin:0;overflow-wrap:anywhere}
main{padding:.5rem;display:grid;grid-template-columns:minmax(0,1fr);gap:.75rem;max-width:1600px;margin:auto}
main>*{min-width:0}
.sides{display:flex;flex-wrap:wrap;gap:.5rem}.side{flex:1 1 8rem;background:#fff;border-left:.4rem solid;
padding:.4rem .6rem;display:flex;flex-direction:column}.side .name{font-weight:600;overflow-wrap:anywhere}
.side .total{font-size:2.2rem;font-weight:700;line-height:1.1}.state{font-size:1.05rem;margin:.4rem 0}
.goal{color:#555;margin:0}.graph{background:#fff;padding:.4rem}.chart{width:100%;height:auto;font-size:13px}
.chart .zero{stroke:#999}.chart .target{stroke:#333;stroke-dasharray:4 4}.legend span{margin-right:.8rem}
.deals{overflow-x:auto;background:#fff}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{padding:.25rem .4rem;text-align:right;border-bottom:1px solid #ddd;white-space:nowrap}
caption{text-align:left;color:#555;padding:.3rem}form{display:grid;gap:.3rem;background:#fff;padding:.6rem}
h2{font-size:1.05rem;margin:0}
label{font-weight:600;margin-top:.3rem}input,select,button{font-size:1.05rem;padding:.45rem;width:100%}
button{background:#234;color:#fff;border:0;border-radius:.3rem;margin-top:.4rem}
.changes{display:flex;gap:.5rem}.changes form{flex:1;padding:.3rem}.error{color:#b00020;font-weight:600}
.message{background:#e7f4e4;padding:.4rem}p.error{background:#fdecee;padding:.4rem}.problems{color:#b00020}
#said,#deal,.error{scroll-margin-top:.5rem}footer{padding:1rem;text-align:center}
.n{display:none}
@media (max-width:""" + f"{NARROW - 0.02}" + """px){.w{display:none}.n{display:inline}
th,td{padding:.2rem .25rem}td.b{white-space:normal;text-align:left;min-width:4.5rem}th.b{text-align:left}}
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
      var changes=document.getElementById('changes');
      if(changes&&doc.changes){changes.outerHTML=doc.changes;}
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
  // a refused field and its message in the middle of the screen
  function toError(){
    var error=document.querySelector('#deal span.error');
    if(!error){return;}
    error.scrollIntoView({block:'center'});
    var field=document.getElementById('f-'+error.id.slice(2));
    if(field){field.focus({preventScroll:true});}
  }
  wire();toError();window.addEventListener('load',function(){setTimeout(toError,0);});
  setTimeout(poll,1000);
})();
"""
