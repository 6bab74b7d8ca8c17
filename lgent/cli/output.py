"""Printing for the CLI: JSON to stdout, rich tables and panels for people, errors to stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from lgent.models import BrainHit, CatalogEntry


def stdout() -> Console:
    return Console(highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to stdout (no colour, one document)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def print_error(message: str) -> None:
    """One clear line on stderr (plus any follow-up lines already in ``message``)."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {message}", markup=True)


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


def print_hits(hits: list[BrainHit], total: int, warnings: list[str]) -> None:
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
        console.print(f"{hit.rank:>3}. [bold]{name}[/]  score {hit.score:.3f}  [dim]({hit.id}; matched: {fields})[/]")
        if "description" in hit.highlights:
            console.print(f"     {marked(hit.highlights['description'])}")


def escape_text(text: str) -> str:
    from rich.markup import escape

    return escape(text)
