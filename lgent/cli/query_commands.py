"""The commands that ask: query, search, resolve, fill, similar, path, lineage, compatible."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from lgent.cli import output
from lgent.errors import QueryError
from lgent.health import Health
from lgent.limits import MAX_LIMIT
from lgent.serving import PAGE_DEPTH
from lgent.validation import QueryArguments

if TYPE_CHECKING:
    from lgent.facets import Facet
    from lgent.lgent import LGent
    from lgent.models import CatalogEntry, SearchResult
    from lgent.serving import QueryPage

from lgent.cli.access_commands import FacetsOpt, facet_names, facets_table
from lgent.cli.shell import (
    JsonOpt,
    WaitOpt,
    app,
    brain_names,
    check_choice,
    handles_errors,
    known_entry,
    require_artifacts,
    with_lgent,
)


@app.command()
@handles_errors
def query(
    ctx: typer.Context,
    text: Annotated[
        str,
        typer.Argument(
            metavar="QUERY", help="A name, a description, a type question or a keyword query."
        ),
    ],
    constraint: Annotated[
        list[str] | None,
        typer.Option("--constraint", "-c", help="A hard filter, e.g. 'latency < 2s' (repeatable)."),
    ] = None,
    history: Annotated[
        list[str] | None,
        typer.Option(help="Artifacts used before (context for suggestions; repeatable)."),
    ] = None,
    pipeline: Annotated[
        str | None, typer.Option(help="Pipeline being built, e.g. 'DataSource,???,Database'.")
    ] = None,
    limit: Annotated[
        int, typer.Option(min=1, max=PAGE_DEPTH, help="At most this many results.")
    ] = 10,
    offset: Annotated[
        int,
        typer.Option(
            min=0, help=f"Results to skip (a page ends by result {PAGE_DEPTH} at the latest)."
        ),
    ] = 0,
    explain: Annotated[bool, typer.Option(help="Print each result's explanation tree.")] = False,
    wait: WaitOpt = False,
    facets: FacetsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ask every brain that can help, fuse the answers, explain them, and suggest more;
    --facets counts the values of those facets over every match.

    The total does not depend on --limit: the query is answered for its first 50 results and
    the page is cut from them. Words starting with one '-' that are no option are query text
    (lgent query -73.95 longitude); after -- every word is (lgent query -- --limit)."""
    from lgent.models import QueryContext
    from lgent.serving import query_page

    context = None
    if history or pipeline:
        steps = tuple(p.strip() for p in (pipeline or "").split(",") if p.strip())
        context = QueryContext(user_history=tuple(history or ()), current_pipeline=steps)

    names = facet_names(facets)

    async def run(lg: LGent) -> tuple[QueryPage, dict[str, Facet]]:
        await require_artifacts(ctx, lg)
        asked = QueryArguments.check(
            query=text, constraints=tuple(constraint or ()), context=context, limit=limit
        )
        page = await query_page(lg, asked, offset=offset, explain=True)
        counted = await lg.facets(names=names, among=page.matched) if names else {}
        return page, counted

    page, counted = with_lgent(ctx, run, wait=wait)
    if as_json:
        data = page.model_dump(mode="json")
        if names:
            data["facets"] = {n: f.model_dump(mode="json") for n, f in counted.items()}
        output.print_json(data)
    else:
        output.print_response(page, explain=explain)
        if counted:
            output.stdout().print(facets_table(counted))


@app.command()
@handles_errors
def resolve(
    ctx: typer.Context,
    input_type: Annotated[str, typer.Option("--input", help="The type the artifact must accept.")],
    output_type: Annotated[
        str, typer.Option("--output", help="The type it must produce (or a subtype).")
    ],
    contract: Annotated[
        list[str] | None, typer.Option(help="A required contract, e.g. deterministic (repeatable).")
    ] = None,
    constraint: Annotated[
        list[str] | None, typer.Option("--constraint", "-c", help="A hard filter (repeatable).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The best healthy artifact for a type requirement, with its score breakdown."""
    from lgent.models import TypeRequirement

    requirement = TypeRequirement(
        input_type=input_type,
        output_type=output_type,
        contracts=tuple(contract or ()),
        constraints=tuple(constraint or ()),
    )

    resolution = with_lgent(ctx, lambda lg: lg.resolve(requirement))
    if as_json:
        output.print_json(resolution.model_dump(mode="json"))
    else:
        output.print_resolution(resolution)


@app.command()
@handles_errors
def fill(
    ctx: typer.Context,
    steps: Annotated[
        list[str],
        typer.Argument(metavar="STEP...", help="Types or artifact ids, with ??? for each hole."),
    ],
    contract: Annotated[
        list[str] | None, typer.Option(help="A contract every filler must have (repeatable).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Fill the ??? holes of a pipeline, e.g. `lgent fill DataSource '???' Database` (quote the
    ???: unquoted, the shell may replace it with file names of three characters)."""
    from lgent.models import HOLE

    if HOLE not in [s.strip() for s in steps]:
        files = [s for s in steps if Path(s).exists()]
        hint = (
            f": {', '.join(repr(f) for f in files)} "
            f"{'is a file' if len(files) == 1 else 'are files'} in this folder, so the shell "
            "probably replaced an unquoted ??? with matching file names; quote it: '???'"
            if files
            else ""
        )
        raise QueryError(f"the pipeline {' '.join(steps)!r} has no ??? hole to fill{hint}")

    filled = with_lgent(ctx, lambda lg: lg.fill_holes(steps, contract or ()))
    if as_json:
        output.print_json(filled.model_dump(mode="json"))
        return
    console = output.stdout()
    shown = []
    for step in filled.steps:
        shown.append(
            step.given if step.given else "[bold green]" + " >> ".join(step.filled_with) + "[/]"
        )
    output.say(console, "  →  ".join(str(x) for x in shown))
    for step in filled.steps:
        if step.filled_with:
            output.say(console, f"  [dim]{output.escape_text(step.reason)}[/]")


@app.command()
@handles_errors
def similar(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 10,
    as_json: JsonOpt = False,
) -> None:
    """Artifacts closest in meaning to one artifact (not itself or its own versions)."""

    async def run(lg: LGent) -> list[Any]:
        return await lg.similar((await known_entry(lg, artifact_id)).id, limit=limit)

    hits = with_lgent(ctx, run)
    if as_json:
        output.print_json([h.model_dump(mode="json") for h in hits])
        return
    output.print_hits(
        hits, len(hits), [], heading=f"the {len(hits)} closest in meaning to {artifact_id}"
    )


@app.command()
@handles_errors
def search(
    ctx: typer.Context,
    query: Annotated[
        str, typer.Argument(help="Query text; see docs/query-syntax.md for the grammar.")
    ],
    brain: Annotated[
        str, typer.Option(help="Which brain to ask: keyword, semantic or graph.")
    ] = "keyword",
    limit: Annotated[int, typer.Option(min=1, max=1000, help="At most this many results.")] = 10,
    lenient: Annotated[
        bool, typer.Option(help="Treat syntax errors as plain words instead of failing.")
    ] = False,
    entity_type: Annotated[
        list[str] | None, typer.Option("--type", help="Only these entity types.")
    ] = None,
    status: Annotated[list[str] | None, typer.Option(help="Only these statuses.")] = None,
    author: Annotated[list[str] | None, typer.Option(help="Only these authors.")] = None,
    execution: Annotated[
        list[str] | None, typer.Option(help="Only local, cloud or hybrid.")
    ] = None,
    wait: WaitOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Search one brain directly, with its own scores, matched fields and highlights.

    Words starting with one '-' that are no option are query text (lgent search -draft pdf);
    after -- every word is."""
    from lgent.models import EntityType, Execution, SearchFilters, Status

    check_choice("--brain", brain, list(brain_names()))
    for option, values, choices in (
        ("--type", entity_type, [e.value for e in EntityType]),
        ("--status", status, [s.value for s in Status]),
        ("--execution", execution, [x.value for x in Execution]),
    ):
        for value in values or []:
            check_choice(option, value, choices)
    filters = SearchFilters.parse(
        {
            "entity_type": entity_type or [],
            "status": status or [],
            "author": author or [],
            "execution": execution or [],
        }
    )

    async def run(lg: LGent) -> SearchResult:
        await require_artifacts(ctx, lg)
        return await lg.search(query, brain=brain, filters=filters, limit=limit, lenient=lenient)

    result = with_lgent(ctx, run, wait=wait)
    if as_json:
        output.print_json(
            {
                "query": result.query,
                "total": result.total,
                "warnings": result.warnings,
                "hits": [h.model_dump(mode="json") for h in result.hits],
            }
        )
        return
    output.print_hits(result.hits, result.total, result.warnings)


@app.command()
@handles_errors
def path(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="Source type, e.g. RawHTML.")],
    target: Annotated[str, typer.Argument(help="Target type, e.g. Summary.")],
    max_length: Annotated[int, typer.Option(min=1, max=10, help="Most artifacts in a path.")] = 5,
    k: Annotated[int, typer.Option(min=1, max=100, help="How many paths.")] = 5,
    include_unusable: Annotated[
        bool, typer.Option(help="Also use deprecated/retired artifacts.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Composition paths from one type to another, shortest first."""

    paths = with_lgent(
        ctx,
        lambda lg: lg.find_paths(
            source, target, max_length=max_length, k=k, include_unusable=include_unusable
        ),
    )
    if as_json:
        output.print_json(
            [{"ids": list(p.ids), "types": list(p.types), "health": p.health} for p in paths]
        )
        return
    console = output.stdout()
    if not paths:
        output.say(console, f"No path from {source} to {target} within {max_length} step(s).")
    for n, p in enumerate(paths, start=1):
        steps = "".join(f"{t} ─[bold]{a}[/]→ " for t, a in zip(p.types, p.ids, strict=False))
        output.say(console, f"{n}. {steps}{p.types[-1]}  [dim](weakest health {p.health:.2f})[/]")


@app.command()
@handles_errors
def lineage(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    depth: Annotated[
        int | None, typer.Option(min=1, help="How far to follow each relation.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Ancestors, descendants, dependencies, dependents and forging of one artifact."""

    async def run(lg: LGent) -> dict[str, Any]:
        return await lg.lineage((await known_entry(lg, artifact_id)).id, depth=depth)

    groups = with_lgent(ctx, run)
    if as_json:
        output.print_json({k: [dataclasses.asdict(h) for h in v] for k, v in groups.items()})
        return
    console = output.stdout()
    for group, hits in groups.items():
        if hits:
            shown = ", ".join(
                f"{h.id}" + (f" (depth {h.depth})" if h.depth > 1 else "") for h in hits
            )
            output.say(console, f"[bold]{group}[/]: {shown}")
    if not any(groups.values()):
        output.say(console, f"{artifact_id} has no recorded relations.")


@app.command()
@handles_errors
def compatible(
    ctx: typer.Context,
    artifact_id: Annotated[str | None, typer.Argument(metavar="[ID]")] = None,
    have: Annotated[
        str | None,
        typer.Option(
            "--have",
            metavar="TYPES",
            help="Instead of an ID: what can run with these types (comma-separated, e.g. "
            "URL,Date): artifacts whose every input one of them satisfies.",
        ),
    ] = None,
    upstream: Annotated[
        bool,
        typer.Option(
            "--upstream", help="What can feed its input (default: what can take its output)."
        ),
    ] = False,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 20,
    include_unusable: Annotated[
        bool, typer.Option(help="Also deprecated/retired artifacts.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Artifacts whose types fit before or after this one, or that can run with --have."""
    if (artifact_id is None) == (have is None):
        raise typer.BadParameter("give an ID or --have TYPES (not both)", param_hint="ID")
    if have is not None:
        _runnable(ctx, [h.strip() for h in have.split(",") if h.strip()], limit, as_json)
        return
    assert artifact_id is not None
    direction: Literal["downstream", "upstream"] = "upstream" if upstream else "downstream"

    async def run(lg: LGent) -> tuple[CatalogEntry, list[Any], dict[str, CatalogEntry]]:
        entry = await known_entry(lg, artifact_id)
        found = await lg.compatible(  # all of them (a type walk): the total is told
            entry.id, direction=direction, limit=MAX_LIMIT, include_unusable=include_unusable
        )
        return entry, found, await lg.get_many([s.id for s in found[:limit]])

    entry, every, shown_entries = with_lgent(ctx, run)
    sigs = every[:limit]
    if as_json:
        output.print_json([dataclasses.asdict(s) for s in sigs])
        return
    console = output.stdout()
    total = f"{len(every)} or more" if len(every) >= MAX_LIMIT else str(len(every))
    shown = f" (the first {len(sigs)}; --limit shows more)" if len(sigs) < len(every) else ""
    output.say(
        console,
        f"{total} artifact(s) {'feed' if upstream else 'consume'} {artifact_id}{shown}:",
    )
    side, typed = ("input", entry.input_type) if upstream else ("output", entry.output_type)
    if not sigs:
        why = (
            f"it declares no {side} type" if not typed else f"nothing fits its {side} type {typed}"
        )
        output.say(console, f"  ({why})")
    for s in sigs:
        held = shown_entries.get(s.id)
        verdict = Health.of(held).verdict() if held is not None else "not in the catalog"
        output.say(
            console,
            f"  [bold]{s.id}[/]  {s.input_type} -> {s.output_type}  {output.escape_text(verdict)}",
        )


def _runnable(ctx: typer.Context, have: list[str], limit: int, as_json: bool) -> None:
    """``compatible --have``: what can run with the given types."""

    async def run(lg: LGent) -> list[Any]:
        return await lg.runnable(have, limit=limit)

    found = with_lgent(ctx, run)
    if as_json:
        output.print_json([dataclasses.asdict(info) for info in found])
        return
    console = output.stdout()
    given = ", ".join(have)
    output.say(console, f"{len(found)} artifact(s) can run with {output.escape_text(given)}:")
    for info in found:
        needs = ", ".join(info.needs)
        output.say(
            console,
            f"  [bold]{output.escape_text(info.id)}[/]  needs {output.escape_text(needs)}"
            f" -> {output.escape_text(info.output_type or '-')}",
        )
