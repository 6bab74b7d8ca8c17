"""The ``lgent`` command line's shell: the Typer app, its global options, how a command opens
the home, and how errors become one line on stderr (exit 1; usage errors exit 2)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from lgent.cli import output
from lgent.cli.context import GlobalOptions, global_options, require_catalog
from lgent.errors import CatalogError, LGentError, LoadError

if TYPE_CHECKING:
    from lgent.lgent import LGent
    from lgent.models import CatalogEntry

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
WaitOpt = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="Wait for every index, a long semantic build included (default: answer without "
        "it and say how far it is).",
    ),
]
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


def with_lgent(
    ctx: typer.Context,
    fn: Callable[[LGent], Awaitable[T]],
    *,
    create: bool = False,
    read_only: bool | None = None,
    wait: bool = False,
) -> T:
    """Open the home, run ``fn(lg)``, close. Only ``create`` (init, load) may create a home: any
    other command on a folder without a catalog fails, saying how to make one. ``read_only``
    as ``LGent.open`` takes it (True: nothing is written, not even a replica's copy). ``wait``:
    queries wait for every index, a long semantic build included (``--wait``)."""
    from lgent.cli.progress import StderrBuildProgress
    from lgent.lgent import LGent

    options = global_options(ctx)
    home = options.home
    if not create:
        require_catalog(home, options.catalog)
    progress = StderrBuildProgress()

    async def runner() -> T:
        async with LGent.open(
            home,
            catalog=options.catalog,
            progress=progress,
            read_only=read_only,
            freshness="complete" if wait else "wait",
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


async def known_entry(lg: LGent, artifact_id: str) -> CatalogEntry:
    """The artifact ``artifact_id`` names, as ``show`` reads it (an id, or a real-world name
    such as ``Ant Design Components``); unknown, the error names the closest ids."""
    from lgent.serving import get_entry

    return await get_entry(lg, artifact_id)


def stopped(message: str, as_json: bool, kind: str) -> typer.Exit:
    """After Ctrl-C: one line on stderr saying what was kept (JSON on stdout with ``--json``),
    and the exit of an interrupted command."""
    if as_json:
        output.print_error(message, as_json=True, kind=kind)
    else:
        typer.echo(message, err=True)
    return typer.Exit(INTERRUPTED)


def brain_names() -> tuple[str, ...]:
    from lgent import default_registry

    return default_registry().names


def check_choice(option: str, value: str | None, choices: list[str]) -> None:
    if value is not None and value not in choices:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}", param_hint=option)
