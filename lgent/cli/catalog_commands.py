"""The catalog's commands: init, load, import, show, list, stats, remove, reindex, doctor."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lgent.cli import output
from lgent.cli.context import global_options
from lgent.errors import LoadStoppedError

if TYPE_CHECKING:
    from lgent.facets import Facet
    from lgent.lgent import LGent
    from lgent.models import CatalogEntry

from lgent.cli.access_commands import FacetsOpt, facet_names, facets_table
from lgent.cli.shell import (
    INTERRUPTED,
    FollowOpt,
    JsonOpt,
    WaitOpt,
    app,
    brain_names,
    check_choice,
    handles_errors,
    known_entry,
    stopped,
    with_lgent,
)


@app.command()
@handles_errors
def init(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Create the home folder and an empty catalog (nothing happens to an existing one)."""

    async def run(lg: LGent) -> dict[str, Any]:
        return {"home": str(global_options(ctx).home.resolve()), **(await lg.stats())}

    stats = with_lgent(ctx, run, create=True)
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
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders: L-gent catalog files, MCP tools/list results, OpenAPI or "
            "Swagger specs, A2A agent cards, OpenAI function JSON (each detected by content). "
            "Several are loaded as one batch.",
        ),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what would change; write nothing.")
    ] = False,
    follow_symlinks: FollowOpt = False,
    wait: WaitOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Load files or folders, each file in the format its content shows, and build the indexes.

    Native catalog files load atomically (every record, or none); an ecosystem source is synced:
    added, updated, retired and unchanged artifacts are reported, and a source that cannot be
    read is left out and named. The keyword and graph indexes are built at once; a long
    semantic build is left to `lgent reindex` or `lgent serve` (it says how long it takes)
    unless --wait."""
    _load_and_report(ctx, paths, None, dry_run, as_json, follow_symlinks, wait)


@app.command("import")
@handles_errors
def import_(
    ctx: typer.Context,
    kind: Annotated[
        str,
        typer.Argument(
            help="The source format: mcp, mcp-registry, openapi, a2a, openai, jsonl, markdown, "
            "manifest."
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

    check_choice("KIND", kind, LGent.source_formats())
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

        _print_load_report(with_lgent(ctx, harvest, create=True), as_json)
        return
    assert source is not None
    _load_and_report(ctx, source, kind, dry_run, as_json, follow_symlinks)


def _load_and_report(
    ctx: typer.Context,
    path: Path | list[Path],
    kind: str | None,
    dry_run: bool,
    as_json: bool,
    follow_symlinks: bool = False,
    wait: bool = False,
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
            report = await asyncio.shield(job)
        except asyncio.CancelledError:  # Ctrl-C: the reading stops; a commit begun finishes
            interrupted.set()
            return await job
        if not dry_run and report.result is not None:
            report.indexes = await lg.build(complete=wait)
        return report

    try:
        with bar:
            report = with_lgent(ctx, run, create=True)
    except LoadStoppedError as err:
        raise stopped(str(err), as_json, type(err).__name__) from None
    _print_load_report(report, as_json)
    if interrupted.is_set():
        raise typer.Exit(INTERRUPTED)
    if report.rejected and not report.files:  # a script must see that nothing was read
        if not as_json:
            typer.echo("error: nothing was loaded: every source was left out", err=True)
        raise typer.Exit(1)


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
    for brain, state in report.indexes.items():
        output.say(console, f"{brain} index: {output.escape_text(state)}")


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

    answer = with_lgent(ctx, lambda lg: artifact_answer(lg, artifact_id, version))
    if as_json:
        output.print_json(
            {
                **answer.entry.to_record(),
                "history": list(answer.versions),
                "flags": list(answer.flags),
                "health": answer.health,
                "successors": list(answer.successors),
                "callable": answer.callable,
                "inferred_kinds": [k.model_dump(mode="json") for k in answer.kinds],
            }
        )
    else:
        output.stdout().print(
            output.entry_detail(answer.entry, answer.versions, answer.health, answer.successors)
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
        str | None, typer.Option(help="active, experimental, deprecated, retired, draft.")
    ] = None,
    author: Annotated[str | None, typer.Option(help="Exact author.")] = None,
    input_type: Annotated[str | None, typer.Option("--input", help="Exact input type.")] = None,
    output_type: Annotated[str | None, typer.Option("--output", help="Exact output type.")] = None,
    tag: Annotated[str | None, typer.Option(help="One of its keywords.")] = None,
    source: Annotated[
        str | None, typer.Option(help="What wrote it: kind:name, e.g. file:/srv/team.jsonl.")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="At most this many rows.")] = 100,
    offset: Annotated[int, typer.Option(min=0, help="Rows to skip (in id order).")] = 0,
    facets: FacetsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List artifacts (latest versions) in id order, filtered; --facets counts the values of
    those facets over every artifact listed."""
    from lgent import EntryFilter
    from lgent.models import EntityType, Status

    check_choice("--type", entity_type, [e.value for e in EntityType])
    check_choice("--status", status, [s.value for s in Status])
    filters = EntryFilter(entity_type, status, author, input_type, output_type, tag, source)
    names = facet_names(facets)

    async def run(lg: LGent) -> tuple[list[CatalogEntry], int, dict[str, Facet]]:
        entries = await lg.list_entries(filters, limit=limit, offset=offset)
        counted = await lg.facets(filters, names=names) if names else {}
        return entries, await lg.count_entries(filters), counted

    entries, total, counted = with_lgent(ctx, run)
    if as_json:
        records = [e.to_record() for e in entries]
        if names:
            found = {n: f.model_dump(mode="json") for n, f in counted.items()}
            output.print_json({"total": total, "results": records, "facets": found})
        else:
            output.print_json(records)
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
    if counted:
        console.print(facets_table(counted))


@app.command()
@handles_errors
def types(
    ctx: typer.Context,
    words: Annotated[
        list[str] | None,
        typer.Argument(metavar="[WORDS]...", help="Words the type's name or description holds."),
    ] = None,
    kinds_only: Annotated[
        bool, typer.Option("--kinds-only", help="Only value kinds (URL, Date, FilePath...).")
    ] = False,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="At most this many rows.")] = 50,
    offset: Annotated[int, typer.Option(min=0, help="Rows to skip.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """List the catalog's types, most used first: how many artifacts produce and consume each
    (declared types and kinds inferred from schemas), whether it is a value kind and the rules
    that find it, and where it comes from (vocabulary, catalog, an imported source's schema)."""
    from lgent.serving import types_answer

    answer = with_lgent(
        ctx,
        lambda lg: types_answer(
            lg, " ".join(words or ()), kinds_only=kinds_only, offset=offset, limit=limit
        ),
    )
    if as_json:
        output.print_json(answer.model_dump(mode="json"))
        return
    console = output.stdout()
    if not answer.types:
        output.say(console, f"No type matches (of {answer.total}).")
        return
    first, last = offset + 1, offset + len(answer.types)
    console.print(output.types_table(answer.types, title=f"types {first}-{last} of {answer.total}"))


@app.command()
@handles_errors
def stats(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Counts: artifacts, versions, types, relations, by entity type and status."""
    # a shared catalog named on the command line is counted where it is: no home is made
    shared = global_options(ctx).catalog is not None
    data = with_lgent(ctx, lambda lg: lg.stats(), read_only=True if shared else None)
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
        return await lg.remove((await known_entry(lg, artifact_id)).id, version)

    removed = with_lgent(ctx, run)
    if as_json:
        output.print_json({"removed": removed, "id": artifact_id, "version": version})
    else:
        output.say(output.stdout(), f"Removed {removed} version(s) of {artifact_id}.")


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
    names = brain or list(brain_names())
    for name in names:
        check_choice("--brain", name, list(brain_names()))

    try:
        reports = with_lgent(ctx, lambda lg: lg.reindex(names))
    except KeyboardInterrupt:  # the build stopped at its next batch when the home closed
        message = "reindex stopped: the index being rebuilt keeps its previous state"
        raise stopped(message, as_json, "BuildStoppedError") from None
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
