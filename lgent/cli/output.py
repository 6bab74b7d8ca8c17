"""Printing for the CLI: JSON to stdout, rich tables and panels for people, errors to stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from lgent.models import BrainHit, CatalogEntry, QueryResponse, Resolution


def stdout() -> Console:
    return Console(highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to stdout (no colour, one document)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def print_error(message: str) -> None:
    """One clear line on stderr (plus any follow-up lines already in ``message``)."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/] {message}", markup=True
    )


def entry_table(entries: list[CatalogEntry], title: str | None = None) -> Table:
    table = Table(title=title, show_lines=False)
    for column in ("id", "version", "type", "status", "input -> output", "author"):
        table.add_column(column, overflow="fold")
    for e in entries:
        table.add_row(
            e.id,
            e.version,
            e.entity_type.value,
            e.status.value,
            f"{e.input_type or '-'} -> {e.output_type or '-'}",
            e.author or "-",
        )
    return table


def entry_detail(entry: CatalogEntry, versions: list[str]) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    record = entry.to_record()
    for key, value in record.items():
        if key == "relations":
            value = ", ".join(f"{r['type']} {r['target']}" for r in value) or "-"
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value) or "-"
        table.add_row(key, str(value))
    if len(versions) > 1:
        table.add_row("history", ", ".join(versions))
    return table


def mapping_table(data: dict[str, Any], title: str | None = None) -> Table:
    table = Table(title=title, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items()) or "-"
        table.add_row(key, str(value))
    return table


def marked(text: str) -> str:
    """Turn ``<mark>`` highlights into rich markup (everything else escaped)."""
    from rich.markup import escape

    return escape(text).replace("<mark>", "[bold yellow]").replace("</mark>", "[/]")


def print_hits(hits: Sequence[BrainHit], total: int, warnings: Sequence[str]) -> None:
    console = stdout()
    for warning in warnings:
        console.print(f"[yellow]note:[/] {escape_text(warning)}")
    if not hits:
        console.print("No results.")
        return
    console.print(f"{len(hits)} of {total} match(es)")
    for hit in hits:
        name = marked(hit.highlights.get("name", hit.id))
        fields = ", ".join(hit.matched_fields) or "-"
        console.print(
            f"{hit.rank:>3}. [bold]{name}[/]  score {hit.score:.3f}  [dim]({hit.id}; matched: {fields})[/]"
        )
        if "description" in hit.highlights:
            console.print(f"     {marked(hit.highlights['description'])}")


def escape_text(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def print_response(response: QueryResponse, *, explain: bool = False) -> None:
    """Results with their sources, the interpretation, and serendipity."""
    console = stdout()
    console.print(f"[dim]{escape_text(response.query_interpretation)}[/]")
    for warning in response.warnings:
        console.print(f"[yellow]note:[/] {escape_text(warning)}")
    if not response.results:
        console.print("No results.")
    for n, result in enumerate(response.results, start=1):
        e = result.entry
        sources = ", ".join(f"{s.brain} #{s.rank}" for s in result.sources) or "lineage"
        name = marked(result.highlights.get("name", e.name))
        status = "" if e.status.value == "active" else f" [red]{e.status.value}[/]"
        console.print(
            f"{n:>3}. [bold]{name}[/]{status}  [dim]{e.id} · {e.entity_type.value} · "
            f"{e.input_type or '-'} -> {e.output_type or '-'} · score {result.score:.4f} · {sources}[/]"
        )
        text = result.highlights.get("description") or e.description
        if text:
            console.print(f"     {marked(text) if '<mark>' in text else escape_text(text[:200])}")
        for note in result.notes:
            console.print(f"     [yellow]{escape_text(note)}[/]")
        if explain:
            import json

            console.print(
                f"     [dim]{escape_text(json.dumps(result.explanation, default=str))}[/]"
            )
    if response.serendipity:
        console.print("[bold]You might also consider:[/]")
        for item in response.serendipity:
            console.print(
                f"  • {escape_text(item.reason)} [dim](confidence {item.confidence:.2f})[/]"
            )
    cached = " (cached)" if response.cached else ""
    console.print(
        f"[dim]{response.total_matches} match(es), {response.search_time_ms:.1f} ms{cached}[/]"
    )


def print_resolution(resolution: Resolution) -> None:
    console = stdout()
    best, score = resolution.best, resolution.score
    console.print(
        f"[bold green]{best.id}[/] ({best.input_type} -> {best.output_type}, v{best.version}) "
        f"score {score.total:.3f} = success {score.success:.2f}×{score.weights['success']} + "
        f"recency {score.recency:.2f}×{score.weights['recency']} + usage {score.usage:.2f}×{score.weights['usage']} + "
        f"version {score.version:.2f}×{score.weights['version']}"
    )
    for runner in resolution.runners_up:
        console.print(f"  runner-up {runner.entry.id}: {runner.score.total:.3f}")
    for rejected in resolution.rejected:
        console.print(
            f"  [dim]rejected {rejected.id}: {escape_text('; '.join(rejected.reasons))}[/]"
        )
