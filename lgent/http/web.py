"""The web page for people: search at ``/``, one artifact at ``/artifact/{id}``.

The search page is static HTML, CSS and a small script of our own (``static/``) that asks
``GET /search`` as you type. An artifact's page is rendered here, on the server, with its
neighbourhood drawn as SVG (``lgent.http.graph``); it works without the script. Nothing is
loaded from another host.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from lgent.http.graph import neighbourhood, render_svg
from lgent.http.links import artifact_href
from lgent.models import CatalogEntry
from lgent.serving import (
    ArtifactAnswer,
    ShownKind,
    artifact_answer,
    evidence_text,
    owner,
    signature,
    slot_text,
)

if TYPE_CHECKING:
    from lgent.lgent import LGent

STATIC = Path(__file__).parent / "static"


def add_web_page(app: FastAPI, lg: LGent) -> None:
    """Serve the search page at ``/``, artifact pages at ``/artifact/{id}``, and ``/static``."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/artifact/{artifact_id:path}", include_in_schema=False)
    async def artifact_page(artifact_id: str, version: str | None = None) -> HTMLResponse:
        answer = await artifact_answer(lg, artifact_id, version)
        svg = render_svg(await neighbourhood(lg, artifact_id))
        held = await lg.get_many([r.target for r in answer.entry.relations])
        return HTMLResponse(render_artifact(answer, svg, set(held)))


def _row(label: str, value: str) -> str:
    return f"<tr><th>{escape(label)}</th><td>{value}</td></tr>" if value else ""


def _link(artifact_id: str, held: set[str] | None = None) -> str:
    """A link to the artifact's page, or its id marked as missing when ``held`` (the ids the
    catalog holds) lacks it: a relation may name an artifact removed since."""
    if held is not None and artifact_id not in held:
        return f'{escape(artifact_id)} <span class="muted">(not in the catalog)</span>'
    return f'<a href="{escape(artifact_href(artifact_id))}">{escape(artifact_id)}</a>'


def facts(entry: CatalogEntry, held: set[str] | None = None) -> list[tuple[str, str]]:
    """The entry's fields as (label, escaped HTML) rows, empty ones left out (``held``: the
    ids the catalog holds, when known: relations to others are not links)."""
    rows = [
        ("id", escape(entry.id)),
        ("kind", escape(entry.entity_type.value)),
        ("signature", f"<code>{escape(signature(entry))}</code>"),
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


def render_artifact(answer: ArtifactAnswer, svg: str, held: set[str] | None = None) -> str:
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
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · L-gent</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<header><a class="brand" href="/">L-gent</a>
<form action="/" method="get" class="mini"><input name="q" type="search"
 placeholder="Search the catalog" aria-label="Search the catalog"></form></header>
<main class="artifact">
<h1 id="name">{title}{also}</h1>
<p class="meta"><span class="badge">{escape(entry.entity_type.value)}</span>
<code id="signature">{escape(signature(entry))}</code>
<span class="muted">version {escape(entry.version)}</span></p>
<p id="health" class="health">{health}</p>
<p class="description">{escape(entry.description)}</p>
<section><h2>Lineage and composition</h2>
<div id="graph" class="graph-box">{svg}</div>
<p class="legend">Left: what can feed it. Right: what can take its output. Above: its
generations, the interface it implements, what forged it. Below: what it depends on and what
depends on it. Dashed: deprecated or retired. Amber: has a health warning.</p></section>
<section><h2>Details</h2><table class="facts">{rows}
<tr><th>versions</th><td id="versions">{versions}</td></tr></table></section>
</main>
</body>
</html>
"""
