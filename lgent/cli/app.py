"""The ``lgent`` command line: a thin shell over the LGent facade.

User errors (any LGentError) print one line to stderr and exit 1; usage errors exit 2.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

from lgent.cli import output
from lgent.cli.context import GlobalOptions, global_options
from lgent.cli.serve import serve
from lgent.errors import LGentError, LoadError

if TYPE_CHECKING:
    from lgent.lgent import LGent
    from lgent.models import CatalogEntry

T = TypeVar("T")

app = typer.Typer(
    name="lgent",
    help="L-gent: find the right AI-agent artifact by name, by intent, or by what it connects to.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


@app.callback()
def _root(
    ctx: typer.Context,
    home: Annotated[
        Path,
        typer.Option(
            "--home",
            envvar="LGENT_HOME",
            help="The L-gent home folder (catalog and indexes). Env: LGENT_HOME.",
            show_default=True,
        ),
    ] = Path(".lgent"),
) -> None:
    ctx.obj = GlobalOptions(home=home)


def _with_lgent(ctx: typer.Context, fn: Callable[[LGent], Awaitable[T]]) -> T:
    """Open the home, run ``fn(lg)``, close; LGentErrors become one line on stderr and exit 1."""
    from lgent.cli.progress import StderrBuildProgress
    from lgent.lgent import LGent

    progress = StderrBuildProgress()

    async def runner() -> T:
        async with LGent.open(global_options(ctx).home, progress=progress) as lg:
            return await fn(lg)

    try:
        return asyncio.run(runner())
    finally:
        progress.close()


def handles_errors(command: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except LGentError as err:
            message = err.pretty() if hasattr(err, "pretty") else str(err)
            if isinstance(err, LoadError) and len(err.errors) > 1:
                message += "".join(f"\n  {e}" for e in err.errors[:20])
            output.print_error(message)
            raise typer.Exit(1) from None

    return wrapper


@app.command()
@handles_errors
def init(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Create the home folder and an empty catalog (nothing happens to an existing one)."""

    async def run(lg: LGent) -> dict[str, Any]:
        return {"home": str(global_options(ctx).home.resolve()), **(await lg.stats())}

    stats = _with_lgent(ctx, run)
    if as_json:
        output.print_json(stats)
    else:
        output.stdout().print(
            f"L-gent home ready at {stats['home']} ({stats['artifacts']} artifacts)"
        )


@app.command()
@handles_errors
def load(
    ctx: typer.Context,
    path: Annotated[
        Path, typer.Argument(help="A catalog file (.jsonl/.json/.yaml/.md) or a folder.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Load a catalog file or folder atomically: every record of it, or none."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    show_bar = not as_json and sys.stderr.isatty()
    bar = Progress(
        TextColumn("loading"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not show_bar,
    )
    task = bar.add_task("load", total=None)

    def progress(done: int, total: int, _file: str) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        report = _with_lgent(ctx, lambda lg: lg.load(path, progress=progress))
    data = report.to_dict()
    if as_json:
        output.print_json(data)
        return
    console = output.stdout()
    r = report.result
    console.print(
        f"Loaded {len(report.files)} file(s): {len(r.added)} added, {len(r.updated)} updated, "
        f"{len(r.unchanged)} unchanged; types: {len(r.types_added)} added, "
        f"{len(r.types_updated)} updated, {len(r.types_unchanged)} unchanged "
        f"(change number {r.change_number})."
    )
    if report.skipped:
        console.print(f"Skipped {len(report.skipped)} path(s):")
        for skipped_path, reason in report.skipped[:10]:
            console.print(f"  {skipped_path}: {reason}")
    for warning in report.warnings[:20]:
        console.print(f"[yellow]warning:[/] {warning}")
    if len(report.warnings) > 20:
        console.print(f"[yellow]... and {len(report.warnings) - 20} more warnings (see --json)[/]")


@app.command()
@handles_errors
def show(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID", help="The artifact id.")],
    version: Annotated[
        str | None, typer.Option(help="A specific version (default: latest).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one artifact (latest version unless --version)."""

    async def run(lg: LGent) -> tuple[CatalogEntry, list[str]]:
        return await lg.get(artifact_id, version), await lg.versions(artifact_id)

    entry, versions = _with_lgent(ctx, run)
    if as_json:
        output.print_json({**entry.to_record(), "history": versions})
    else:
        output.stdout().print(output.entry_detail(entry, versions))


@app.command("list")
@handles_errors
def list_(
    ctx: typer.Context,
    entity_type: Annotated[
        str | None,
        typer.Option("--type", help="agent, tool, prompt, pipeline, dataset, model, other."),
    ] = None,
    status: Annotated[
        str | None, typer.Option(help="active, experimental, deprecated, retired.")
    ] = None,
    author: Annotated[str | None, typer.Option(help="Exact author.")] = None,
    input_type: Annotated[str | None, typer.Option("--input", help="Exact input type.")] = None,
    output_type: Annotated[str | None, typer.Option("--output", help="Exact output type.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="At most this many rows.")] = 100,
    as_json: JsonOpt = False,
) -> None:
    """List artifacts (latest versions), filtered."""
    from lgent import EntryFilter
    from lgent.models import EntityType, Status

    _check_choice("--type", entity_type, [e.value for e in EntityType])
    _check_choice("--status", status, [s.value for s in Status])
    filters = EntryFilter(entity_type, status, author, input_type, output_type)

    entries = _with_lgent(ctx, lambda lg: lg.list_entries(filters, limit=limit))
    if as_json:
        output.print_json([e.to_record() for e in entries])
    else:
        output.stdout().print(output.entry_table(entries, title=f"{len(entries)} artifact(s)"))


@app.command()
@handles_errors
def stats(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Counts: artifacts, versions, types, relations, by entity type and status."""

    data = _with_lgent(ctx, lambda lg: lg.stats())
    if as_json:
        output.print_json(data)
    else:
        output.stdout().print(
            output.mapping_table(data, title=f"catalog at {global_options(ctx).home}")
        )


@app.command()
@handles_errors
def remove(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    version: Annotated[str | None, typer.Option(help="Remove only this version.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Remove an artifact (every version, or one)."""

    removed = _with_lgent(ctx, lambda lg: lg.remove(artifact_id, version))
    if as_json:
        output.print_json({"removed": removed, "id": artifact_id, "version": version})
    else:
        output.stdout().print(f"Removed {removed} version(s) of {artifact_id}.")


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
    limit: Annotated[int, typer.Option(min=1, max=1000, help="At most this many results.")] = 10,
    explain: Annotated[bool, typer.Option(help="Print each result's explanation tree.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Ask every brain that can help, fuse the answers, explain them, and suggest more."""
    from lgent.models import QueryContext

    context = None
    if history or pipeline:
        steps = tuple(p.strip() for p in (pipeline or "").split(",") if p.strip())
        context = QueryContext(user_history=tuple(history or ()), current_pipeline=steps)

    response = _with_lgent(ctx, lambda lg: lg.query(text, constraint, context, limit))
    if as_json:
        output.print_json(response.model_dump(mode="json"))
    else:
        output.print_response(response, explain=explain)


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

    resolution = _with_lgent(ctx, lambda lg: lg.resolve(requirement))
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
    """Fill the ??? holes of a pipeline, e.g. `lgent fill DataSource ??? Database`."""

    filled = _with_lgent(ctx, lambda lg: lg.fill_holes(steps, contract or ()))
    if as_json:
        output.print_json(filled.model_dump(mode="json"))
        return
    console = output.stdout()
    shown = []
    for step in filled.steps:
        shown.append(
            step.given if step.given else "[bold green]" + " >> ".join(step.filled_with) + "[/]"
        )
    console.print("  →  ".join(str(x) for x in shown))
    for step in filled.steps:
        if step.filled_with:
            console.print(f"  [dim]{output.escape_text(step.reason)}[/]")


@app.command()
@handles_errors
def similar(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 10,
    as_json: JsonOpt = False,
) -> None:
    """Artifacts closest in meaning to one artifact (not itself or its own versions)."""

    hits = _with_lgent(ctx, lambda lg: lg.similar(artifact_id, limit=limit))
    if as_json:
        output.print_json([h.model_dump(mode="json") for h in hits])
        return
    output.print_hits(hits, len(hits), [])


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
    as_json: JsonOpt = False,
) -> None:
    """Search one brain directly, with its own scores, matched fields and highlights."""
    from lgent.models import EntityType, Execution, SearchFilters, Status

    _check_choice("--brain", brain, list(_brain_names()))
    for option, values, choices in (
        ("--type", entity_type, [e.value for e in EntityType]),
        ("--status", status, [s.value for s in Status]),
        ("--execution", execution, [x.value for x in Execution]),
    ):
        for value in values or []:
            _check_choice(option, value, choices)
    filters = SearchFilters.parse(
        {
            "entity_type": entity_type or [],
            "status": status or [],
            "author": author or [],
            "execution": execution or [],
        }
    )

    result = _with_lgent(
        ctx, lambda lg: lg.search(query, brain=brain, filters=filters, limit=limit, lenient=lenient)
    )
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
def reindex(
    ctx: typer.Context,
    brain: Annotated[
        list[str] | None, typer.Option(help="Brain(s) to rebuild (default: every built one).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild brain indexes from the catalog."""
    names = brain or list(_brain_names())
    for name in names:
        _check_choice("--brain", name, list(_brain_names()))

    reports = _with_lgent(ctx, lambda lg: lg.reindex(names))
    if as_json:
        output.print_json([dataclasses.asdict(r) for r in reports])
        return
    for r in reports:
        output.stdout().print(
            f"{r.brain}: rebuilt at change number {r.to_change} ({r.upserts} artifacts)"
        )


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

    paths = _with_lgent(
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
        console.print(f"No path from {source} to {target} within {max_length} step(s).")
    for n, p in enumerate(paths, start=1):
        steps = "".join(f"{t} ─[bold]{a}[/]→ " for t, a in zip(p.types, p.ids, strict=False))
        console.print(f"{n}. {steps}{p.types[-1]}  [dim](weakest health {p.health:.2f})[/]")


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

    groups = _with_lgent(ctx, lambda lg: lg.lineage(artifact_id, depth=depth))
    if as_json:
        output.print_json({k: [dataclasses.asdict(h) for h in v] for k, v in groups.items()})
        return
    console = output.stdout()
    for group, hits in groups.items():
        if hits:
            shown = ", ".join(
                f"{h.id}" + (f" (depth {h.depth})" if h.depth > 1 else "") for h in hits
            )
            console.print(f"[bold]{group}[/]: {shown}")
    if not any(groups.values()):
        console.print(f"{artifact_id} has no recorded relations.")


@app.command()
@handles_errors
def compatible(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
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
    """Artifacts whose types fit before or after this one."""
    direction: Literal["downstream", "upstream"] = "upstream" if upstream else "downstream"

    sigs = _with_lgent(
        ctx,
        lambda lg: lg.compatible(
            artifact_id, direction=direction, limit=limit, include_unusable=include_unusable
        ),
    )
    if as_json:
        output.print_json([dataclasses.asdict(s) for s in sigs])
        return
    console = output.stdout()
    console.print(f"{len(sigs)} artifact(s) {'feed' if upstream else 'consume'} {artifact_id}:")
    for s in sigs:
        console.print(
            f"  [bold]{s.id}[/]  {s.input_type} -> {s.output_type}  (health {s.health:.2f})"
        )


@app.command()
@handles_errors
def doctor(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Check the home: catalog integrity and each index against the catalog; say how to repair."""
    from lgent.lgent import LGent

    checks = LGent.check_home(global_options(ctx).home)
    if as_json:
        output.print_json([dataclasses.asdict(c) for c in checks])
    else:
        console = output.stdout()
        style = {"ok": "green", "warn": "yellow", "fail": "bold red"}
        for c in checks:
            fix = f"  [dim]→ {output.escape_text(c.fix)}[/]" if c.fix and c.level != "ok" else ""
            console.print(
                f"[{style[c.level]}]{c.level:>4}[/]  {c.name}: {output.escape_text(c.message)}{fix}"
            )
    if any(c.level == "fail" for c in checks):
        raise typer.Exit(1)


app.command()(handles_errors(serve))


def _brain_names() -> tuple[str, ...]:
    from lgent import default_registry

    return default_registry().names


def _check_choice(option: str, value: str | None, choices: list[str]) -> None:
    if value is not None and value not in choices:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}", param_hint=option)


def main() -> None:
    """Console-script entry point."""
    app()
