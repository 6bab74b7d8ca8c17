"""The ``lgent`` command line: a thin shell over the LGent facade.

User errors (any LGentError) print one line to stderr and exit 1; usage errors exit 2.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

from lgent.cli import output
from lgent.cli.context import GlobalOptions, global_options, require_catalog
from lgent.cli.serve import serve
from lgent.errors import CatalogError, LGentError, LoadError, LoadStoppedError, QueryError
from lgent.limits import MAX_LIMIT
from lgent.serving import PAGE_DEPTH

if TYPE_CHECKING:
    from lgent.lgent import LGent
    from lgent.models import CatalogEntry, SearchResult
    from lgent.serving import QueryPage

T = TypeVar("T")
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), as the shell reports one."""

app = typer.Typer(
    name="lgent",
    help="L-gent: find the right AI-agent artifact by name, by intent, or by what it connects to.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
FollowOpt = Annotated[
    bool,
    typer.Option(
        "--follow-symlinks",
        help="Read symlinks that lead out of the folder (default: skip them, named in the report).",
    ),
]


def _print_version(value: bool) -> None:
    if value:
        from lgent import __version__

        typer.echo(f"lgent {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    home: Annotated[
        Path,
        typer.Option(
            "--home",
            envvar="LGENT_HOME",
            help="The L-gent home folder (catalog and indexes); also accepted after the "
            "command. Env: LGENT_HOME.",
            show_default=True,
        ),
    ] = Path(".lgent"),
    catalog: Annotated[
        str | None,
        typer.Option(
            "--catalog",
            envvar="LGENT_CATALOG",
            help="A shared PostgreSQL catalog (postgresql://...) instead of the home's own; "
            "the home then keeps this host's replica and indexes. Env: LGENT_CATALOG.",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    if catalog is not None:
        from lgent.config import check_catalog_url
        from lgent.errors import SettingsError

        try:
            check_catalog_url(catalog, "--catalog")
        except SettingsError as err:
            raise typer.BadParameter(str(err), param_hint="--catalog") from None
    ctx.obj = GlobalOptions(home=home, catalog=catalog)


def _with_lgent(
    ctx: typer.Context,
    fn: Callable[[LGent], Awaitable[T]],
    *,
    create: bool = False,
    read_only: bool | None = None,
) -> T:
    """Open the home, run ``fn(lg)``, close. Only ``create`` (init, load) may create a home: any
    other command on a folder without a catalog fails, saying how to make one. ``read_only``
    as ``LGent.open`` takes it (True: nothing is written, not even a replica's copy)."""
    from lgent.cli.progress import StderrBuildProgress
    from lgent.lgent import LGent

    options = global_options(ctx)
    home = options.home
    if not create:
        require_catalog(home, options.catalog)
    progress = StderrBuildProgress()

    async def runner() -> T:
        async with LGent.open(
            home, catalog=options.catalog, progress=progress, read_only=read_only
        ) as lg:
            return await fn(lg)

    try:
        return asyncio.run(runner())
    finally:
        progress.close()


def require_artifacts(ctx: typer.Context, lg: LGent) -> Awaitable[None]:
    """A CatalogError when the catalog is empty: a search of it could only answer nothing."""
    home = global_options(ctx).home

    async def check() -> None:
        if await lg.count_entries() == 0:
            raise CatalogError(
                f"the catalog at {home} is empty: load artifacts with "
                f"`lgent --home {home} load PATH`"
            )

    return check()


def handles_errors(command: Callable[..., None]) -> Callable[..., None]:
    """LGentErrors print one line to stderr and exit 1; with ``--json``, the error is JSON on
    stdout (``{"error": {"type", "message"}}``), exit 1, and a bad option value exits 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        as_json = bool(kwargs.get("as_json"))
        try:
            command(*args, **kwargs)
        except LGentError as err:
            message = err.pretty() if hasattr(err, "pretty") else str(err)
            if isinstance(err, LoadError) and len(err.errors) > 1:
                message += "".join(f"\n  {e}" for e in err.errors[:20])
            output.print_error(message, as_json=as_json, kind=type(err).__name__.rstrip("_"))
            raise typer.Exit(1) from None
        except typer.BadParameter as err:
            if not as_json:
                raise
            output.print_error(err.format_message(), as_json=True, kind="UsageError")
            raise typer.Exit(2) from None

    return wrapper


@app.command()
@handles_errors
def init(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Create the home folder and an empty catalog (nothing happens to an existing one)."""

    async def run(lg: LGent) -> dict[str, Any]:
        return {"home": str(global_options(ctx).home.resolve()), **(await lg.stats())}

    stats = _with_lgent(ctx, run, create=True)
    if as_json:
        output.print_json(stats)
    else:
        output.say(
            output.stdout(),
            f"L-gent home ready at {stats['home']} ({stats['artifacts']} artifacts)",
        )


@app.command()
@handles_errors
def load(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            help="A file or folder: L-gent catalog files, MCP tools/list results, OpenAPI or "
            "Swagger specs, A2A agent cards, OpenAI function JSON (each detected by content)."
        ),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what would change; write nothing.")
    ] = False,
    follow_symlinks: FollowOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Load a file or folder, each file in the format its content shows.

    Native catalog files load atomically (every record, or none); an ecosystem source is synced:
    added, updated, retired and unchanged artifacts are reported, and a source that cannot be
    read is left out and named."""
    _load_and_report(ctx, path, None, dry_run, as_json, follow_symlinks)


@app.command("import")
@handles_errors
def import_(
    ctx: typer.Context,
    kind: Annotated[
        str,
        typer.Argument(
            help="The source format: mcp, openapi, a2a, openai, jsonl, markdown, manifest."
        ),
    ],
    source: Annotated[Path | None, typer.Argument(help="A file or folder in that format.")] = None,
    command: Annotated[
        str | None,
        typer.Option(
            "--command",
            help='mcp only: start this server ("CMD ARGS...") and harvest it over stdio.',
        ),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option("--url", help="mcp only: harvest the server at this streamable HTTP URL."),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            help="mcp only: the server's name here (its id and its owner), instead of the name "
            "it gives itself; keeps it one source when its command or URL changes.",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option(min=1, max=3600, help="Seconds a live harvest may take.")
    ] = 60.0,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what would change; write nothing.")
    ] = False,
    follow_symlinks: FollowOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Import a source in a named format, or harvest a live MCP server (--command / --url).

    Importing the same source again is a sync: what changed gets a new version, what the source
    no longer has is retired (kept in the history), the rest is left alone."""
    from lgent.lgent import LGent

    _check_choice("KIND", kind, LGent.source_formats())
    live = command is not None or url is not None
    if live and kind != "mcp":
        raise typer.BadParameter("--command and --url harvest MCP servers only", param_hint="KIND")
    if live and source is not None:
        raise typer.BadParameter("give a SOURCE or --command/--url, not both", param_hint="SOURCE")
    if command is not None and url is not None:
        raise typer.BadParameter("give --command or --url, not both", param_hint="--url")
    if name is not None and not live:
        raise typer.BadParameter("--name names a harvested server (--command or --url)")
    if not live and source is None:
        raise typer.BadParameter("a file or folder to import is required", param_hint="SOURCE")
    if live:

        async def harvest(lg: LGent) -> Any:
            return await lg.import_mcp(
                command=command, url=url, dry_run=dry_run, timeout=timeout, name=name
            )

        _print_load_report(_with_lgent(ctx, harvest, create=True), as_json)
        return
    assert source is not None
    _load_and_report(ctx, source, kind, dry_run, as_json, follow_symlinks)


def _load_and_report(
    ctx: typer.Context,
    path: Path,
    kind: str | None,
    dry_run: bool,
    as_json: bool,
    follow_symlinks: bool = False,
) -> None:
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    show_bar = not as_json and sys.stderr.isatty()
    bar = Progress(
        TextColumn("reading" if dry_run else "loading"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        transient=True,
        disable=not show_bar,
    )
    task = bar.add_task("load", total=None)

    def progress(done: int, total: int, _file: str) -> None:
        bar.update(task, completed=done, total=total)

    interrupted = threading.Event()

    async def run(lg: LGent) -> Any:
        job = asyncio.ensure_future(
            lg.load(
                path,
                progress=progress,
                kind=kind,
                dry_run=dry_run,
                follow_symlinks=follow_symlinks or None,
                cancelled=interrupted.is_set,
            )
        )
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:  # Ctrl-C: the reading stops; a commit begun finishes
            interrupted.set()
            return await job

    try:
        with bar:
            report = _with_lgent(ctx, run, create=True)
    except LoadStoppedError as err:
        raise _stopped(str(err), as_json, type(err).__name__) from None
    _print_load_report(report, as_json)
    if interrupted.is_set():
        raise typer.Exit(INTERRUPTED)
    if report.rejected and not report.files:  # a script must see that nothing was read
        if not as_json:
            typer.echo("error: nothing was loaded: every source was left out", err=True)
        raise typer.Exit(1)


async def _known(lg: LGent, artifact_id: str) -> CatalogEntry:
    """The artifact ``artifact_id`` names, as ``show`` reads it (an id, or a real-world name
    such as ``Ant Design Components``); unknown, the error names the closest ids."""
    from lgent.serving import get_entry

    return await get_entry(lg, artifact_id)


def _stopped(message: str, as_json: bool, kind: str) -> typer.Exit:
    """After Ctrl-C: one line on stderr saying what was kept (JSON on stdout with ``--json``),
    and the exit of an interrupted command."""
    if as_json:
        output.print_error(message, as_json=True, kind=kind)
    else:
        typer.echo(message, err=True)
    return typer.Exit(INTERRUPTED)


def _print_load_report(report: Any, as_json: bool) -> None:
    data = report.to_dict()
    if as_json:
        output.print_json(data)
        return
    console = output.stdout()
    r = report.result
    verb = "Would load" if report.dry_run else "Loaded"
    retired = f", {len(r.retired)} retired" if r.retired else ""
    output.say(
        console,
        f"{verb} {len(report.files)} file(s): {len(r.added)} added, {len(r.updated)} updated"
        f"{retired}, {len(r.unchanged)} unchanged; types: {len(r.types_added)} added, "
        f"{len(r.types_updated)} updated, {len(r.types_unchanged)} unchanged "
        f"(change number {r.change_number}{', nothing written' if report.dry_run else ''}).",
    )
    for label, ids in (("updated", r.updated), ("retired", r.retired)):
        if ids and len(ids) <= 20:
            output.say(console, f"  {label}: {output.escape_text(', '.join(ids))}")
    if report.rejected:
        output.say(
            console, f"[yellow]Left out {len(report.rejected)} source(s) that could not be read:[/]"
        )
        for rejected_path, reason in report.rejected[:20]:
            output.say(
                console, f"  {output.escape_text(rejected_path)}: {output.escape_text(reason)}"
            )
    if report.skipped:
        output.say(console, f"Skipped {len(report.skipped)} path(s):")
        for skipped_path, reason in report.skipped[:10]:
            output.say(console, f"  {skipped_path}: {reason}")
    for warning in report.warnings[:20]:
        output.say(console, f"[yellow]warning:[/] {output.escape_text(warning)}")
    if len(report.warnings) > 20:
        output.say(
            console, f"[yellow]... and {len(report.warnings) - 20} more warnings (see --json)[/]"
        )


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
    """Show one artifact (latest version unless --version): its fields, versions, health and
    what replaced it; an unknown id gets the closest ids."""
    from lgent.serving import artifact_answer

    answer = _with_lgent(ctx, lambda lg: artifact_answer(lg, artifact_id, version))
    if as_json:
        output.print_json(
            {
                **answer.entry.to_record(),
                "history": list(answer.versions),
                "flags": list(answer.flags),
                "successors": list(answer.successors),
            }
        )
    else:
        output.stdout().print(
            output.entry_detail(answer.entry, answer.versions, answer.flags, answer.successors)
        )


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
    offset: Annotated[int, typer.Option(min=0, help="Rows to skip (in id order).")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """List artifacts (latest versions) in id order, filtered."""
    from lgent import EntryFilter
    from lgent.models import EntityType, Status

    _check_choice("--type", entity_type, [e.value for e in EntityType])
    _check_choice("--status", status, [s.value for s in Status])
    filters = EntryFilter(entity_type, status, author, input_type, output_type)

    async def run(lg: LGent) -> tuple[list[CatalogEntry], int]:
        return await lg.list_entries(filters, limit=limit, offset=offset), await lg.count_entries(
            filters
        )

    entries, total = _with_lgent(ctx, run)
    if as_json:
        output.print_json([e.to_record() for e in entries])
        return
    console = output.stdout()
    if total == 0 and filters == EntryFilter():
        home = global_options(ctx).home
        output.say(
            console,
            f"The catalog at {home} is empty: load artifacts with `lgent --home {home} load PATH`.",
        )
        return
    first, last = offset + 1, offset + len(entries)
    span = f"{first}-{last} of {total}" if entries else f"none of {total} at offset {offset}"
    console.print(output.entry_table(entries, title=f"artifacts {span}"))


@app.command()
@handles_errors
def stats(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Counts: artifacts, versions, types, relations, by entity type and status."""
    # a shared catalog named on the command line is counted where it is: no home is made
    shared = global_options(ctx).catalog is not None
    data = _with_lgent(ctx, lambda lg: lg.stats(), read_only=True if shared else None)
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

    async def run(lg: LGent) -> int:
        return await lg.remove((await _known(lg, artifact_id)).id, version)

    removed = _with_lgent(ctx, run)
    if as_json:
        output.print_json({"removed": removed, "id": artifact_id, "version": version})
    else:
        output.say(output.stdout(), f"Removed {removed} version(s) of {artifact_id}.")


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
    as_json: JsonOpt = False,
) -> None:
    """Ask every brain that can help, fuse the answers, explain them, and suggest more.

    The total does not depend on --limit: the query is answered for its first 100 results and
    the page is cut from them. Words starting with one '-' that are no option are query text
    (lgent query -73.95 longitude); after -- every word is (lgent query -- --limit)."""
    from lgent.models import QueryContext
    from lgent.serving import query_page

    context = None
    if history or pipeline:
        steps = tuple(p.strip() for p in (pipeline or "").split(",") if p.strip())
        context = QueryContext(user_history=tuple(history or ()), current_pipeline=steps)

    async def run(lg: LGent) -> QueryPage:
        await require_artifacts(ctx, lg)
        return await query_page(
            lg, text, constraint, context, offset=offset, limit=limit, explain=True
        )

    page = _with_lgent(ctx, run)
    if as_json:
        output.print_json(page.model_dump(mode="json"))
    else:
        output.print_response(page, explain=explain)


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
        return await lg.similar((await _known(lg, artifact_id)).id, limit=limit)

    hits = _with_lgent(ctx, run)
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
    as_json: JsonOpt = False,
) -> None:
    """Search one brain directly, with its own scores, matched fields and highlights.

    Words starting with one '-' that are no option are query text (lgent search -draft pdf);
    after -- every word is."""
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

    async def run(lg: LGent) -> SearchResult:
        await require_artifacts(ctx, lg)
        return await lg.search(query, brain=brain, filters=filters, limit=limit, lenient=lenient)

    result = _with_lgent(ctx, run)
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

    try:
        reports = _with_lgent(ctx, lambda lg: lg.reindex(names))
    except KeyboardInterrupt:  # the build stopped at its next batch when the home closed
        message = "reindex stopped: the index being rebuilt keeps its previous state"
        raise _stopped(message, as_json, "BuildStoppedError") from None
    if as_json:
        output.print_json([dataclasses.asdict(r) for r in reports])
        return
    for r in reports:
        output.say(
            output.stdout(),
            f"{r.brain}: rebuilt at change number {r.to_change} ({r.upserts} artifacts)",
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
        return await lg.lineage((await _known(lg, artifact_id)).id, depth=depth)

    groups = _with_lgent(ctx, run)
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

    async def run(lg: LGent) -> tuple[CatalogEntry, list[Any]]:
        entry = await _known(lg, artifact_id)
        found = await lg.compatible(  # all of them (a type walk): the total is told
            entry.id, direction=direction, limit=MAX_LIMIT, include_unusable=include_unusable
        )
        return entry, found

    entry, every = _with_lgent(ctx, run)
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
        output.say(
            console,
            f"  [bold]{s.id}[/]  {s.input_type} -> {s.output_type}  (health {s.health:.2f})",
        )


@app.command()
@handles_errors
def doctor(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Check the home: catalog integrity and each index against the catalog; say how to repair."""
    from lgent.lgent import LGent

    options = global_options(ctx)
    checks = LGent.check_home(options.home, catalog=options.catalog)
    if as_json:
        output.print_json([dataclasses.asdict(c) for c in checks])
    else:
        console = output.stdout()
        style = {"ok": "green", "warn": "yellow", "fail": "bold red"}
        for c in checks:
            fix = f"  [dim]→ {output.escape_text(c.fix)}[/]" if c.fix and c.level != "ok" else ""
            output.say(
                console,
                f"[{style[c.level]}]{c.level:>4}[/]  {c.name}: {output.escape_text(c.message)}{fix}",
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


GLOBAL_FLAGS = ("--version",)
GLOBAL_OPTIONS = ("--home",)


def _command_of(args: Sequence[str]) -> str | None:
    """The subcommand named in ``args`` (the first word that is no option nor option value)."""
    index = 0
    while index < len(args):
        if args[index] in GLOBAL_OPTIONS:
            index += 2
        elif args[index].startswith("-"):
            index += 1
        else:
            return args[index]
    return None


def _command_index(args: Sequence[str]) -> int:
    """Where ``_command_of`` found the subcommand in ``args`` (-1: nowhere)."""
    index = 0
    while index < len(args):
        if args[index] in GLOBAL_OPTIONS:
            index += 2
        elif args[index].startswith("-"):
            index += 1
        else:
            return index
    return -1


@functools.cache
def _click_command() -> Any:
    """The click group typer builds from ``app``, built once per process: typer builds it by
    reading every command's signature, which took a tenth of a cold ``lgent query`` when the
    option helpers below and the call itself each built their own."""
    return typer.main.get_command(app)


def _own_options(command: str | None) -> set[str]:
    """The option names the subcommand ``command`` defines itself."""
    root = _click_command()
    found = getattr(root, "commands", {}).get(command) if command else None
    if found is None:
        return set()
    options = (p for p in found.params if p.param_type_name == "option")
    return {name for param in options for name in param.opts}


def hoist_global_options(args: Sequence[str]) -> list[str]:
    """``args`` with the global options moved before the command, so ``lgent query X --home H``
    means ``lgent --home H query X`` (nothing after a ``--`` is touched)."""
    hoisted: list[str] = []
    rest: list[str] = []
    own = _own_options(_command_of(args)) & {*GLOBAL_FLAGS, *GLOBAL_OPTIONS}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest += args[index:]
            break
        if arg in own:
            rest.append(arg)  # the command's own option of that name (`show --version 1.0`)
        elif arg in GLOBAL_FLAGS or any(arg.startswith(f"{o}=") for o in GLOBAL_OPTIONS):
            hoisted.append(arg)
        elif arg in GLOBAL_OPTIONS and index + 1 < len(args):
            hoisted += [arg, args[index + 1]]
            index += 1
        else:
            rest.append(arg)
        index += 1
    return hoisted + rest


TEXT_COMMANDS = ("query", "search")
"""Commands whose argument is query text, which may start with ``-`` (``lgent query -73.95``)."""


def _option_arity(command: str) -> dict[str, int]:
    """Each option name of ``command`` (and ``--help``) and how many values it takes."""
    root = _click_command()
    found = getattr(root, "commands", {}).get(command)
    arity = {"--help": 0}
    for param in getattr(found, "params", ()):
        if param.param_type_name != "option":
            continue
        takes = 0 if (getattr(param, "is_flag", False) or getattr(param, "count", False)) else 1
        arity.update({name: takes for name in (*param.opts, *param.secondary_opts)})
    return arity


def query_text_arguments(args: Sequence[str]) -> list[str]:
    """``args`` with the words of a query command read as its query text: a word that starts with
    one ``-`` but is none of the command's options is text (``lgent query "-73.95 longitude"``),
    and several words are one query (``lgent query -73.95 longitude``). An unknown ``--word``
    stays an option, so a typo is still an error. Options may come anywhere; ``--`` ends them."""
    command = _command_of(args)
    if command not in TEXT_COMMANDS:
        return list(args)
    start = _command_index(args) + 1
    arity = _option_arity(command)
    options: list[str] = []
    words: list[str] = []
    index = start
    while index < len(args):
        arg = args[index]
        name = arg.split("=", 1)[0]
        if arg == "--":
            words += args[index + 1 :]
            break
        if name in arity:
            takes = arity[name] if "=" not in arg else 0
            options += args[index : index + 1 + takes]
            index += 1 + takes
            continue
        if arg.startswith("--"):
            options.append(arg)  # a mistyped long option stays an error, not query text
        else:
            words.append(arg)
        index += 1
    if not words or (len(words) == 1 and not words[0].startswith("-")):
        return list(args)
    return [*args[:start], *options, "--", " ".join(words)]


def main() -> None:
    """Run the command ``sys.argv`` names: what ``app()`` does, with the click group built once.
    With ``--json``, a usage error (an unknown option, a bad value) is JSON on stdout like every
    other error (``{"error": {"type", "message"}}``), exit 2, not click's text on stderr."""
    args = query_text_arguments(hoist_global_options(sys.argv[1:]))
    command = _click_command()
    if not wants_json(args):
        command(args=args, prog_name="lgent")
        return
    try:
        code = command.main(args=args, prog_name="lgent", standalone_mode=False)
    except typer.Abort:
        output.print_error("aborted", as_json=True, kind="Aborted")
        sys.exit(1)
    except typer.TyperException as err:  # click's usage errors derive from it
        format_message = getattr(err, "format_message", None)
        message = format_message() if callable(format_message) else str(err)
        output.print_error(message, as_json=True, kind=type(err).__name__)
        sys.exit(getattr(err, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)


def wants_json(args: Sequence[str]) -> bool:
    """Whether ``--json`` is among the options of ``args`` (not in the query text after
    ``--``)."""
    options = args[: args.index("--")] if "--" in args else args
    return "--json" in options


def console_main() -> None:
    """The ``lgent`` console script and ``python -m lgent.cli``: ``main()`` in a process that
    ends with it.

    What is alive when the command starts (modules, classes, settings) lives until the process
    exits, and what the command leaves is dropped with it, so both are frozen out of the garbage
    collector's scans: otherwise the collections while the interpreter shuts down traversed every
    object again, a fifth of the CPU time of a cold name lookup (0.66 -> 0.51 s)."""
    gc.freeze()
    try:
        main()
    finally:
        gc.freeze()
