"""What every page of the site shares: the frame (navigation, style, the search box), escaping, the
permanent URLs of cases, claims, tools, implementations and releases, and how an outcome is shown.

The pages are static HTML that read fine without JavaScript; the one script filters tables and
lists as you type and runs the search (search.html, over search-cases.js and search-claims.js)."""
from __future__ import annotations

import html
import re

STYLE = """
*{box-sizing:border-box}body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
header{background:#24292f;color:#fff;padding:.5em 1.5em;display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center}
header a{color:#fff;text-decoration:none}header a:hover{text-decoration:underline}header b{margin-right:1em}
header form{margin-left:auto}header input{padding:.25em .5em;width:16em;border-radius:4px;border:0}
main{padding:1em 1.5em 3em;max-width:1280px}h1{font-size:1.6em;margin:.4em 0;overflow-wrap:anywhere}
h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #d0d7de}h3{font-size:1.05em;margin-bottom:.3em}
a{color:#0969da}code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;padding:.6em .8em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;border-radius:4px;margin:.4em 0}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #d0d7de;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f6f8fa;font-weight:600}td.num,th.num{text-align:right}
td.ok,span.ok{background:#dafbe1}td.bad,span.bad{background:#ffebe9}td.x,span.x{background:#fff8c5}
td.part,span.part{background:#eaf5ea}td.na,span.na{background:#f6f8fa;color:#57606a}
span.ok,span.bad,span.x,span.na,span.part{padding:0 .35em;border-radius:3px;white-space:nowrap}
table.compat td.cell{text-align:center;white-space:nowrap;font-size:13px}table.compat td.cell a{color:inherit;text-decoration:none;display:block}
table.compat th.impl{writing-mode:horizontal-tb;font-size:12px;max-width:9em;overflow-wrap:anywhere}
.quote{color:#57606a;font-style:italic}.tag{font-size:12px;color:#57606a}
.badge{font-size:12px;padding:0 .4em;border-radius:3px;background:#eaeef2;white-space:nowrap}
.badge.contradicted{background:#ffebe9}.badge.imprecise{background:#fff8c5}
details{margin:.3em 0}summary{cursor:pointer}.hidden{display:none}ul.cases{columns:2;column-gap:2em}
.legend span{margin-right:1em}section.impl{border-left:4px solid #d0d7de;padding-left:.8em;margin:1em 0}
section.impl.bad{border-color:#cf222e}section.impl.ok{border-color:#1a7f37}section.impl.x{border-color:#bf8700}
"""

SCRIPT = """
function wsconfFilter(input){const q=input.value.toLowerCase();const scope=document.getElementById(input.dataset.scope);
let n=0;for(const row of scope.querySelectorAll('.row')){const hit=row.textContent.toLowerCase().includes(q);
row.classList.toggle('hidden',!hit);if(hit)n++}const c=document.getElementById(input.dataset.scope+'-count');
if(c)c.textContent=n+' shown'}
const WSCONF_PAGE={case:'case/',claim:'claim/',erratum:'claim/'};
function wsconfSearch(index){const box=document.getElementById('q');const out=document.getElementById('results');
const words=box.value.toLowerCase().split(/\\s+/).filter(Boolean);out.textContent='';
const count=document.getElementById('results-count');if(!words.length){count.textContent='';return}
const hits=index.filter(e=>words.every(w=>e.words.includes(w)));
count.textContent=hits.length+' found'+(hits.length>200?', the first 200 shown':'');
for(const e of hits.slice(0,200)){const li=document.createElement('li');const k=document.createElement('span');
k.className='badge';k.textContent=e[0];const a=document.createElement('a');a.href=WSCONF_PAGE[e[0]]+e[1]+'.html';
a.textContent=e[1]+': '+e[2];li.append(k,' ',a);out.append(li)}}
document.addEventListener('DOMContentLoaded',()=>{
for(const input of document.querySelectorAll('input[data-scope]')){input.addEventListener('input',()=>wsconfFilter(input))}
const box=document.getElementById('q');if(box&&window.WSCONF_CASES&&window.WSCONF_CLAIMS){
const index=window.WSCONF_CASES.concat(window.WSCONF_CLAIMS);
for(const e of index)e.words=(e[1]+' '+e[2]+' '+e[3]).toLowerCase();
const p=new URLSearchParams(location.search);if(p.get('q'))box.value=p.get('q');
box.addEventListener('input',()=>wsconfSearch(index));wsconfSearch(index)}
document.body.dataset.ready='1'});
"""

# How an outcome reads on the site, and its colour class.
OUTCOME = {"passed": ("passed", "ok"), "failed": ("failed", "bad"), "error": ("adapter fault", "bad"),
           "xfail": ("expected failure", "x"), "xpass": ("passed (listed as failing)", "bad"),
           "unsupported": ("unsupported", "na"), "not_applicable": ("not applicable", "na"),
           "absent": ("not run", "na")}


def esc(text) -> str:
    """Escaped for HTML; a lone surrogate (half an emoji in an output) shown as its escape."""
    return html.escape(str(text).encode("utf-8", "backslashreplace").decode("utf-8"))


def with_code(text: str) -> str:
    """A line written for Markdown (BEHAVIOUR-CHANGES.md: `code` in backticks) as HTML."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", esc(text))


def outcome_span(outcome: str, harm: str | None = None) -> str:
    words, cls = OUTCOME.get(outcome, (outcome, ""))
    if harm and outcome in ("failed", "xfail", "error"):
        words += f": {harm.replace('_', ' ')}"
    return f'<span class="{cls}">{esc(words)}</span>'


# -- permanent URLs, relative to the site's root ------------------------------------------------------

def _name(text: str) -> str:
    """An id as a file name and a URL alike (ids are made of these characters already)."""
    return re.sub(r"[^A-Za-z0-9._@+-]", "_", text)


def case_url(case_id: str) -> str:
    return f"case/{_name(case_id)}.html"


def claim_url(claim_id: str) -> str:
    return f"claim/{_name(claim_id)}.html"


def tool_url(family: str) -> str:
    return f"tool/{_name(family)}.html"


def implementation_url(slug: str) -> str:
    return f"implementation/{_name(slug)}.html"


def release_url(version: str) -> str:
    return f"release/{_name(version)}.html"


def page(title: str, body: list[str], depth: int, heading: str | None = None) -> str:
    """A whole page: `depth` is how many folders below the site's root it is (links are relative, so
    the site works from any folder and from file://)."""
    up = "../" * depth
    nav = (f'<header><b><a href="{up}index.html">wsconf</a></b><a href="{up}index.html#tools">tools</a>'
           f'<a href="{up}index.html#implementations">implementations</a><a href="{up}cases.html">cases</a>'
           f'<a href="{up}claims.html">claims and errata</a><a href="{up}changes.html">behaviour changes</a>'
           f'<form action="{up}search.html" role="search"><input name="q" type="search" '
           f'placeholder="search cases, claims, errata" aria-label="search"></form></header>')
    return (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width\">"
            f"<title>{esc(title)} · wsconf</title><link rel=stylesheet href=\"{up}site.css\">"
            f"<script src=\"{up}site.js\" defer></script>\n{nav}<main><h1>{esc(heading or title)}</h1>\n"
            + "\n".join(body) + "\n</main></html>\n")


def link(url: str, text: str, depth: int) -> str:
    return f'<a href="{"../" * depth}{url}">{esc(text)}</a>'
