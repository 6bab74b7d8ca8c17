"""Printing for the CLI: JSON to stdout, wrapped text for people, errors to stderr (or, with
``--json``, as JSON on stdout).

Text is wrapped to the terminal's width (``COLUMNS`` when stdout is not a terminal, else 80) at
word boundaries, so an id is never cut across two lines. Each result shows its name once (and its
id only when that differs), its health flags, and, when it sits below a result with a lower score,
why.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from lgent.models import BrainHit, CatalogEntry, QueryResult, QueryType, Resolution
from lgent.serving import (
    QueryPage,
    ShownKind,
    TypeRow,
    evidence_text,
    one_line,
    result_card,
    score_part,
    shown_kinds,
    signature,
    slot_text,
    unmeasured,
    weighed_parts,
)


def stdout() -> Console:
    return Console(highlight=False, soft_wrap=False)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to stdout (no colour, one document)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def print_error(message: str, *, as_json: bool = False, kind: str = "Error") -> None:
    """One clear line on stderr (plus any follow-up lines already in ``message``); with
    ``as_json``, ``{"error": {"type", "message"}}`` on stdout instead."""
    if as_json:
        print_json({"error": {"type": kind, "message": message}})
        return
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/] {escape(message)}", markup=True
    )


def escape_text(text: str) -> str:
    return escape(text)


def entry_table(entries: Sequence[CatalogEntry], title: str | None = None) -> Table:
    table = Table(title=title, show_lines=False)
    for column in ("id", "version", "type", "status", "input -> output", "author"):
        table.add_column(column, overflow="fold")
    for e in entries:
        table.add_row(
            e.id,
            e.version,
            e.entity_type.value,
            e.status.value,
            signature(e),
            e.author or "-",
        )
    return table


def entry_detail(
    entry: CatalogEntry,
    versions: Sequence[str],
    health: str,
    successors: Sequence[str] = (),
) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    record = entry.to_record()
    for key, value in record.items():
        if key in ("origin", "kinds"):  # shown below (`show --json` has all of them)
            continue
        if key == "relations":
            value = ", ".join(f"{r['type']} {r['target']}" for r in value) or "-"
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value) or "-"
        table.add_row(key, escape(str(value)))
    if entry.input_type or entry.output_type:
        # what the graph brain and the resolver compose by (derived from schemas on import)
        table.add_row(
            "signature", escape(f"{entry.input_type or '-'} -> {entry.output_type or '-'}")
        )
    for label, item in _kind_rows(shown_kinds(entry)):
        table.add_row(label, item)
    if len(versions) > 1:
        table.add_row("history", ", ".join(versions))
    if successors:
        table.add_row("replaced by", ", ".join(successors))
    table.add_row("health", escape(health))
    call = entry.callable_definition()
    if call is not None:
        table.add_row("call", escape(call_line(call)))
    return table


def _kind_rows(shown: Sequence[ShownKind]) -> list[tuple[str, str]]:
    """The inferred kinds as rows: ``takes`` / ``gives``, each kind on a line with its
    confidence, then its evidence indented (what found it, in which words, where)."""
    rows = []
    for slot, label in (("input", "takes"), ("output", "gives")):
        lines = []
        for item in (k for k in shown if k.slot == slot):
            lines.append(escape(slot_text(item)))
            lines += [f"  {escape(evidence_text(e, item.kind))}" for e in item.evidence]
        if lines:
            rows.append((f"{label} (inferred)", "\n".join(lines)))
    return rows


def types_table(rows: Sequence[TypeRow], title: str) -> Table:
    """Types with their counts, kind rules and origin (``lgent types``)."""
    table = Table(title=title, title_justify="left")
    table.add_column("type", overflow="fold")
    table.add_column("produced by", justify="right")
    table.add_column("consumed by", justify="right")
    table.add_column("kind: found by", overflow="fold")
    table.add_column("from", overflow="fold")
    for row in rows:
        rules = ", ".join(f"{family} ({len(found)})" for family, found in row.rules.items())
        name = row.name + (f" < {', '.join(row.parents)}" if row.parents else "")
        table.add_row(
            escape(name),
            f"{row.producers:,}",
            f"{row.consumers:,}",
            escape(rules if row.kind and rules else "kind" if row.kind else ""),
            escape(row.source),
        )
    return table


def call_line(call: dict[str, Any]) -> str:
    """How to call an artifact in one line (its whole definition is in ``show --json``)."""
    kind = call.get("kind")
    if kind == "mcp_tool":
        server = call["server"]
        return f"MCP tool {call['tool']['name']} of server {server['id']}" + _launch_text(
            server["launch"]
        )
    if kind == "mcp_server":
        return "MCP server" + _launch_text(call["launch"])
    if kind == "http_operation":
        http = call["http"]
        return f"{http['method']} {http['base_url'] or ''}{http['path']}"
    if kind == "http_api":
        return f"HTTP API at {call['base_url'] or '(no base URL given)'}"
    if kind in ("a2a_agent", "a2a_skill"):
        return f"A2A agent at {call['url'] or '(no URL given)'}"
    return "function " + str(call.get("function", {}).get("name", ""))


def _launch_text(launches: list[dict[str, Any]]) -> str:
    if not launches:
        return " (how to start it is not known)"
    first = launches[0]
    if first["transport"] == "stdio":
        words = " ".join([first.get("command", ""), *first.get("args", [])]).strip()
        env = first.get("env", [])
        return f", started with: {words}" + (f" (needs {', '.join(env)})" if env else "")
    return f", at {first['url']} ({first['transport']})"


def mapping_table(data: dict[str, Any], title: str | None = None) -> Table:
    table = Table(title=title, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items()) or "-"
        table.add_row(key, str(value))
    return table


_MARKS = re.compile(r"</?mark>")


def marked(text: str) -> str:
    """A highlight (HTML: escaped text, ``<mark>`` around matches) as rich markup."""
    parts = _MARKS.split(text)
    tags = _MARKS.findall(text)
    out = [escape(html.unescape(parts[0]))]
    for tag, part in zip(tags, parts[1:], strict=True):
        out += ["[/]" if tag == "</mark>" else "[bold yellow]", escape(html.unescape(part))]
    return "".join(out)


def print_hits(
    hits: Sequence[BrainHit], total: int, warnings: Sequence[str], heading: str = ""
) -> None:
    """Hits with their highlights, under ``heading`` (default: how many of ``total``)."""
    console = stdout()
    for warning in warnings:
        say(console, f"[yellow]note:[/] {escape(warning)}")
    if not hits:
        say(console, "No results.")
        return
    say(console, escape(heading) if heading else f"{len(hits)} of {total} match(es)")
    for hit in hits:
        shown = hit.highlights.get("name")
        name = escape(hit.id) if shown is None else marked(shown)
        if shown is not None and html.unescape(_MARKS.sub("", shown)) != hit.id:
            name += f" [dim]({escape(hit.id)})[/]"  # names repeat across servers: ids do not
        fields = ", ".join(hit.matched_fields) or "-"
        say(
            console,
            f"{hit.rank:>3}. [bold]{name}[/]  score {hit.score:.3f}  [dim](matched: {fields})[/]",
        )
        if "description" in hit.highlights:
            say(console, f"     {marked(hit.highlights['description'])}")


GRAPH_LEADS = {
    QueryType.TYPE_QUERY: "type question",
    QueryType.RELATIONSHIP: "relationship question",
}
"""Query kinds whose results follow the graph's answer first (see docs/architecture.md)."""


def demotion(
    result: QueryResult, above: Sequence[QueryResult], query_type: QueryType
) -> str | None:
    """Why ``result`` is listed below a result with a lower score (None when it is not)."""
    if not any(other.score < result.score for other in above):
        return None
    if result.superseded_by and any(o.id == result.superseded_by for o in above):
        return f"listed below its successor {result.superseded_by}"
    if query_type in GRAPH_LEADS:
        graph = next((s for s in result.sources if s.brain == "graph"), None)
        kind = GRAPH_LEADS[query_type]
        if graph is not None:
            return f"listed in the graph's order for the {kind} (graph #{graph.rank})"
        return f"listed after the graph's answers to the {kind}"
    placed = next((o for o in above if o.companion and o.score < result.score), None)
    if placed is not None and placed.companion is not None:
        return f"listed after {placed.id}, placed beside {placed.companion.of} as its companion"
    return "listed lower by fusion's lineage ordering (see --explain)"


INDENT = 5


def print_hanging(
    console: Console, number: str, lines: Sequence[str], indent: int = INDENT
) -> None:
    """Lines of markup after a right-aligned ``number``, each wrapped at word boundaries to the
    console's width with a hanging indent (no trailing spaces)."""
    width = max(20, console.width - indent)
    first = True
    for line in lines:
        for part in Text.from_markup(line).wrap(console, width, overflow="fold"):
            prefix = (
                (f"{number:>{indent - 1}} " if number else " " * indent) if first else " " * indent
            )
            part.rstrip()
            console.print(Text(prefix) + part, soft_wrap=True)
            first = False


_LEAD = re.compile(r"^( *)((?:\d+\.|•|-) )?")


def say(console: Console, markup: str) -> None:
    """One paragraph of markup, wrapped at word boundaries to the console's width with no
    trailing spaces; continuation lines line up after its leading spaces and list marker."""
    lead = _LEAD.match(markup)
    prefix = lead.group(0) if lead else ""
    width = max(20, console.width - len(prefix))
    first = True
    for part in Text.from_markup(markup[len(prefix) :]).wrap(console, width, overflow="fold"):
        part.rstrip()
        console.print(Text(prefix if first else " " * len(prefix)) + part, soft_wrap=True)
        first = False


def print_response(page: QueryPage, *, explain: bool = False) -> None:
    """Results with their flags and reasons, the interpretation, and suggestions."""
    console = stdout()
    say(console, f"[dim]{escape(page.query_interpretation)}[/]")
    for warning in page.warnings:
        say(console, f"[yellow]note:[/] {escape(warning)}")
    if not page.results:
        say(console, "No results.")
    shown: list[QueryResult] = []
    for n, result in enumerate(page.results, start=page.offset + 1):
        e, card = result.entry, result_card(result)
        shown_name = result.highlights.get("name")
        name = marked(shown_name) if shown_name else escape(e.name)
        also = "" if e.name == e.id else f" [dim]({escape(e.id)})[/]"
        sources = ", ".join(f"{s.brain} #{s.rank}" for s in result.sources) or "lineage"
        by = f" · by {escape(e.author)}" if e.author else ""
        lines = [
            f"[bold]{name}[/]{also}  [dim]{e.entity_type.value} · {escape(signature(e))}{by} · "
            f"score {result.score:.4f} ({sources})[/]"
        ]
        lines += [f"[bold red]warning: {escape(flag)}[/]" for flag in card.flags]
        reason = demotion(result, shown, page.query_type)
        if reason:
            lines.append(f"[yellow]{escape(reason)}[/]")
        text = result.highlights.get("description")
        lines.append(marked(text) if text else escape(one_line(e.description, 200)))
        if card.why:
            lines.append(f"[dim]why: {escape(card.why)}[/]")
        if explain:
            lines.append(f"[dim]{escape(json.dumps(result.explanation, default=str))}[/]")
        print_hanging(console, f"{n}.", lines)
        shown.append(result)
    if page.serendipity:
        say(console, "[bold]You might also consider:[/]")
        for item in page.serendipity:
            print_hanging(
                console, "•", [f"{escape(item.reason)} [dim](confidence {item.confidence:.2f})[/]"]
            )
    first, last = page.offset + 1, page.offset + len(page.results)
    more = "" if page.next_offset is None else f"; next page: --offset {page.next_offset}"
    span = f"showing {first}-{last}" if page.results else "none shown"
    cached = " (cached)" if page.cached else ""
    say(
        console,
        f"[dim]{page.total_matches} match(es), {span}{more}; "
        f"{page.search_time_ms:.1f} ms{cached}[/]",
    )


def print_resolution(resolution: Resolution) -> None:
    console = stdout()
    best, score = resolution.best, resolution.score
    missing = unmeasured(best)
    parts = " + ".join(
        f"{part} {score_part(score, part, missing)}×{score.weights[part]}"
        for part in weighed_parts(score)
    )
    say(
        console,
        f"[bold green]{escape(best.id)}[/] ({escape(signature(best))}, {escape(version_label(best.version))}) "
        f"score {score.total:.3f} = {parts}",
    )
    for runner in resolution.runners_up:
        lacks = unmeasured(runner.entry)
        why = f" ({', '.join(f'{part} {how}' for part, how in lacks.items())})" if lacks else ""
        say(console, f"  runner-up {escape(runner.entry.id)}: {runner.score.total:.3f}{why}")
    for rejected in resolution.rejected:
        say(
            console,
            f"  [dim]rejected {escape(rejected.id)}: {escape('; '.join(rejected.reasons))}[/]",
        )


def version_label(version: str) -> str:
    """``v1.2.0`` for a version starting with a digit; any other text as it is (``v1``, ``nightly``)."""
    return f"v{version}" if version[:1].isdigit() else version
