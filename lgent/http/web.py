"""The web page for people: search and browse at ``/``, entity pages rendered on the server.

The search page is static HTML, CSS and a small script of our own (``static/app.js``): before
anything is typed it browses the catalog with facet counts (kind, source, owner, status, tag,
input and output kinds; a click filters), and as you type it asks ``GET /search``. Entity pages:

- ``/artifact/{id}``: one artifact, its details and history, its neighbourhood drawn as a
  layered graph (``lgent.http.graph``: laid out in the browser by the vendored dagre), and,
  for an API or an MCP server, every one of its operations or tools, a page at a time.
- ``/type/{name}``: a type, the artifacts that produce it and those that consume it, paged.

Every page answers for the caller's scope (``lgent.http.callers``; the web page sends a named
token in the ``lgent_token`` cookie), and whatever it cannot show (an unknown id or type, or
one out of the caller's scope) is a real HTML 404. Nothing is loaded from another host.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

from fastapi import FastAPI, Query
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from lgent.errors import NotFoundError, TypeLatticeError
from lgent.http.callers import Caller
from lgent.http.graph import neighbourhood
from lgent.http.html import not_found, page
from lgent.http.links import artifact_href
from lgent.lgent import LGent
from lgent.models import CatalogEntry
from lgent.serving import (
    ArtifactAnswer,
    Card,
    HistoryRow,
    ShownKind,
    artifact_answer,
    cards_of,
    evidence_text,
    history_answer,
    owner,
    signature,
    slot_text,
    type_sides,
)

STATIC = Path(__file__).parent / "static"
PARTS_PAGE = 25
"""Operations or tools an API or server page lists at a time."""
TYPE_PAGE = 25
"""Producers or consumers a type page lists at a time."""
Offset = Annotated[int, Query(ge=0, le=1_000_000)]


def add_web_page(app: FastAPI, lg: LGent) -> None:
    """Serve the search page at ``/``, entity pages, and ``/static``."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/artifact/{artifact_id:path}", include_in_schema=False)
    async def artifact_page(
        me: Caller, artifact_id: str, version: str | None = None, parts: Offset = 0
    ) -> HTMLResponse:
        try:
            answer = await artifact_answer(me, artifact_id, version)
        except NotFoundError as err:
            return not_found(str(err))
        entry = answer.entry
        graph = await neighbourhood(me, entry.id)
        held = await me.get_many([r.target for r in entry.relations])
        part_ids = await _parts(me, entry.id)
        shown = await cards_of(me, part_ids[parts : parts + PARTS_PAGE])
        history = history_answer(entry.id, await me.history(entry.id)).changes
        body = render_artifact(answer, set(held), history)
        if part_ids:
            body += render_parts(entry, shown, parts, len(part_ids))
        body += (
            '<script type="application/json" id="graph-data">'
            + graph.model_dump_json().replace("</", "<\\/")
            + "</script>"
        )
        scripts = ("vendor/dagre-1.1.4.min.js", "graph.js")
        return HTMLResponse(page(entry.name, body, scripts=scripts, css_class="artifact"))

    @app.get("/type/{type_name:path}", include_in_schema=False)
    async def type_page(
        me: Caller, type_name: str, producers: Offset = 0, consumers: Offset = 0
    ) -> HTMLResponse:
        try:
            name, made_by, taken_by = await type_sides(me, type_name)
        except TypeLatticeError as err:
            return not_found(str(err))
        body = f'<h1 id="type-name">{escape(name)} <span class="muted">type</span></h1>'
        for key, title, ids, offset in (
            ("producers", "Produced by", made_by, producers),
            ("consumers", "Consumed by", taken_by, consumers),
        ):
            cards = await cards_of(me, ids[offset : offset + TYPE_PAGE])
            other = {"producers": producers, "consumers": consumers}
            body += _listing(key, title, cards, offset, len(ids), TYPE_PAGE, type_href(name), other)
        return HTMLResponse(page(f"type {name}", body, css_class="type"))


def type_href(type_name: str) -> str:
    """The URL path of a type's page."""
    return "/type/" + quote(type_name, safe="")


async def _parts(lg: LGent, artifact_id: str) -> list[str]:
    """Every part of ``artifact_id`` (an API's operations, a server's tools) the view sees."""
    groups = await lg.lineage(artifact_id, depth=1)
    return sorted({h.id for h in groups.get("parts", ())})


def _row(label: str, value: str) -> str:
    return f"<tr><th>{escape(label)}</th><td>{value}</td></tr>" if value else ""


def _link(artifact_id: str, held: set[str] | None = None) -> str:
    """A link to the artifact's page, or its id marked as missing when ``held`` (the ids the
    catalog holds, as the caller sees it) lacks it."""
    if held is not None and artifact_id not in held:
        return f'{escape(artifact_id)} <span class="muted">(not in the catalog)</span>'
    return f'<a href="{escape(artifact_href(artifact_id))}">{escape(artifact_id)}</a>'


def _type_link(type_name: str | None) -> str:
    if not type_name:
        return "-"
    return f'<a class="type" href="{escape(type_href(type_name))}">{escape(type_name)}</a>'


def facts(entry: CatalogEntry, held: set[str] | None = None) -> list[tuple[str, str]]:
    """The entry's fields as (label, escaped HTML) rows, empty ones left out (``held``: the
    ids the catalog holds, when known: relations to others are not links)."""
    rows = [
        ("id", escape(entry.id)),
        ("kind", escape(entry.entity_type.value)),
        (
            "signature",
            f"<code>{_type_link(entry.input_type)} -&gt; {_type_link(entry.output_type)}</code>",
        ),
        ("owner", escape(owner(entry) or "")),
        ("status", escape(entry.status.value)),
        ("keywords", escape(", ".join(entry.keywords))),
        ("contracts", escape(", ".join(entry.contracts))),
        ("success rate", "" if entry.success_rate is None else f"{entry.success_rate:.0%}"),
        ("used", f"{entry.usage_count:,} times" if entry.usage_count else ""),
        ("last used", entry.last_used.date().isoformat() if entry.last_used else ""),
        ("latency", "" if entry.latency_ms is None else f"{entry.latency_ms:g} ms"),
        ("runs", escape(entry.execution.value) if entry.execution else ""),
        (
            "relations",
            "<br>".join(f"{escape(r.type.value)} {_link(r.target, held)}" for r in entry.relations),
        ),
    ]
    return [(label, value) for label, value in rows if value]


def kinds_html(shown: Sequence[ShownKind]) -> str:
    """The inferred kinds, one per line with its confidence and its evidence listed below it
    (escaped HTML; empty when none were inferred)."""
    items = []
    for item in shown:
        said = [escape(evidence_text(e, item.kind)) for e in item.evidence]
        verb = "takes" if item.slot == "input" else "gives"
        items.append(
            f"<li>{verb} <code>{escape(slot_text(item))}</code>"
            f'<ul class="muted">{"".join(f"<li>{e}</li>" for e in said)}</ul></li>'
        )
    return f'<ul id="kinds" class="kinds">{"".join(items)}</ul>' if items else ""


def render_history(changes: Sequence[HistoryRow]) -> str:
    rows = "".join(
        f"<tr><td>{c.seq}</td><td>{escape(c.at[:19].replace('T', ' '))}</td>"
        f"<td>{escape(c.op)} {escape(c.version or 'every version')}</td>"
        f"<td>{escape(c.status or '')}</td><td>{escape(c.writer or 'local')}</td></tr>"
        for c in changes
    )
    return (
        '<section><h2>History</h2><table class="facts history" id="history">'
        "<tr><th>change</th><th>at (UTC)</th><th>what</th><th>status</th><th>by</th></tr>"
        f"{rows}</table></section>"
    )


def render_artifact(
    answer: ArtifactAnswer, held: set[str] | None = None, history: Sequence[HistoryRow] = ()
) -> str:
    """The body of an artifact's page (without its parts list and graph data)."""
    entry = answer.entry
    verdict = escape(answer.health)
    health = (
        f'<span class="ok">{verdict}</span>'
        if answer.health.startswith("healthy")
        else f'<span class="flag">{verdict}</span>'
    )
    versions = ", ".join(
        f'<a href="{escape(artifact_href(entry.id, v))}">{escape(v)}</a>'
        if v != entry.version
        else f"<strong>{escape(v)}</strong>"
        for v in answer.versions
    )
    rows = "".join(_row(label, value) for label, value in facts(entry, held))
    rows += _row("value kinds", kinds_html(answer.kinds))
    title = escape(entry.name)
    also = "" if entry.name == entry.id else f' <span class="muted">{escape(entry.id)}</span>'
    return f"""<h1 id="name">{title}{also}</h1>
<p class="meta"><span class="badge">{escape(entry.entity_type.value)}</span>
<code id="signature">{escape(signature(entry))}</code>
<span class="muted">version {escape(entry.version)}</span></p>
<p id="health" class="health">{health}</p>
<p class="description">{escape(entry.description)}</p>
<section><h2>Lineage and composition</h2>
<div id="graph" class="graph-box"><noscript>The graph needs the page's script.</noscript></div>
<p class="legend">Arrows read as sentences: "A feeds B", "A part of B". Left to right: what can
feed it, then what takes its output. Dashed: deprecated, retired or draft. Amber: has a health
warning. A box "+N more" counts neighbours not drawn.</p></section>
<section><h2>Details</h2><table class="facts">{rows}
<tr><th>versions</th><td id="versions">{versions}</td></tr></table></section>
{render_history(history) if history else ""}
"""


def render_parts(entry: CatalogEntry, cards: Sequence[Card], offset: int, total: int) -> str:
    """The page of an API's operations or a server's tools."""
    origin = entry.origin
    role = origin.role if origin is not None else ""
    kind = {"server": "tools", "api": "operations", "agent": "skills"}.get(role, "parts")
    href = artifact_href(entry.id)
    return _listing(
        "parts", f"Its {kind}", cards, offset, total, PARTS_PAGE, href, {"parts": offset}
    )


def _listing(
    key: str,
    title: str,
    cards: Sequence[Card],
    offset: int,
    total: int,
    size: int,
    href: str,
    offsets: dict[str, int],
) -> str:
    """A titled, paged list of cards (``key``: its id and its offset's query parameter)."""
    if total == 0:
        return f'<section id="{key}"><h2>{escape(title)}</h2><p class="muted">none</p></section>'
    end = offset + len(cards)
    items = "".join(
        f'<li class="result" data-id="{escape(c.id)}"><a class="title" '
        f'href="{escape(artifact_href(c.id))}">{escape(c.name)}</a>'
        f'<div class="meta"><code>{escape(c.signature)}</code>'
        + "".join(f'<span class="flag">{escape(f)}</span>' for f in c.flags)
        + f'</div><p class="description">{escape(c.description)}</p></li>'
        for c in cards
    )

    def at(new: int) -> str:
        chosen = {**offsets, key: new}
        query = "&".join(f"{k}={v}" for k, v in chosen.items() if v)
        return escape(f"{href}?{query}#{key}" if query else f"{href}#{key}")

    nav = []
    if offset > 0:
        nav.append(f'<a class="prev" href="{at(max(0, offset - size))}">previous {size}</a>')
    if end < total:
        nav.append(f'<a class="next" href="{at(end)}">next {min(size, total - end)}</a>')
    shown = f"{offset + 1}-{end} of {total}" if cards else f"none of {total} here"
    return (
        f'<section id="{key}"><h2>{escape(title)} <span class="muted count">{shown}</span></h2>'
        f'<ol class="results">{items}</ol><p class="pager">{" · ".join(nav)}</p></section>'
    )
