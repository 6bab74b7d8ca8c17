"""The commands of a team's catalog: an artifact's history, a draft's promotion, a new named
token, and the facet counts ``lgent list --facets`` and ``lgent query --facets`` print."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated

import typer

from lgent.cli import output
from lgent.cli.shell import JsonOpt, app, handles_errors, with_lgent

if TYPE_CHECKING:
    from rich.table import Table

    from lgent.catalog.records import BatchResult, Change
    from lgent.facets import Facet
    from lgent.lgent import LGent

FacetsOpt = Annotated[
    str | None,
    typer.Option(
        "--facets",
        help="Count these facets' values (comma-separated: kind, source, owner, status, tag, "
        "input, output; 'all' for every one).",
    ),
]


def facet_names(text: str | None) -> tuple[str, ...]:
    """The facets ``--facets`` names (``all``: every one); a bad name is a usage error."""
    from lgent.errors import QueryError
    from lgent.facets import FACET_NAMES, check_facet_names

    if text is None:
        return ()
    if text.strip() == "all":
        return FACET_NAMES
    try:
        return check_facet_names(n.strip() for n in text.split(",") if n.strip())
    except QueryError as err:
        raise typer.BadParameter(str(err), param_hint="--facets") from None


def facets_table(facets: Mapping[str, Facet]) -> Table:
    """One row per facet value: its count (what the list would hold filtered by it)."""
    from rich.table import Table

    table = Table(title="facet counts", show_lines=False)
    for column in ("facet", "value", "count"):
        table.add_column(column, justify="right" if column == "count" else "left")
    for name, facet in facets.items():
        for n, v in enumerate(facet.values):
            table.add_row(name if n == 0 else "", v.value, str(v.count))
        if facet.others:
            table.add_row("", f"({facet.others} more values)", str(facet.others_count))
        if facet.missing:
            table.add_row("", "(none)", str(facet.missing))
    return table


@app.command()
@handles_errors
def history(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    as_json: JsonOpt = False,
) -> None:
    """Every change of an artifact: each version written, with its status and writer."""

    async def run(lg: LGent) -> list[Change]:
        return await lg.history(artifact_id)

    changes = with_lgent(ctx, run)
    rows = [
        {
            "seq": c.seq,
            "at": c.at,
            "op": c.op,
            "version": c.version,
            "status": c.status,
            "writer": c.writer,
        }
        for c in changes
    ]
    if as_json:
        output.print_json(rows)
        return
    from rich.table import Table

    table = Table(title=f"history of {artifact_id}")
    for column in ("seq", "at", "op", "version", "status", "writer"):
        table.add_column(column)
    for row in rows:
        writer = str(row["writer"] or "local")
        table.add_row(
            *(str(row[k] or "") for k in ("seq", "at", "op", "version", "status")), writer
        )
    output.stdout().print(table)


@app.command()
@handles_errors
def promote(
    ctx: typer.Context,
    artifact_id: Annotated[str, typer.Argument(metavar="ID")],
    status: Annotated[str, typer.Option(help="The status it is published with.")] = "active",
    as_json: JsonOpt = False,
) -> None:
    """Publish a draft: its latest version written again with --status (default active)."""

    async def run(lg: LGent) -> BatchResult:
        return await lg.promote(artifact_id, status)

    result = with_lgent(ctx, run)
    if as_json:
        output.print_json(result.to_dict())
        return
    output.say(
        output.stdout(), f"promoted {artifact_id} to {status} (change {result.change_number})"
    )


@app.command()
@handles_errors
def token(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The token's name.")],
) -> None:
    """Make a new named token: print its secret (give it to its holder; it is shown once) and
    the [access.tokens] table to add to lgent.toml (which keeps only its SHA-256)."""
    from lgent.errors import SettingsError
    from lgent.scopes import hash_secret, token_of

    secret = secrets.token_urlsafe(32)
    digest = hash_secret(secret)
    try:
        token_of(name, {"secret_sha256": digest})
    except SettingsError as err:
        raise typer.BadParameter(str(err), param_hint="NAME") from None
    print(f"secret: {secret}")
    print()
    print(f"[access.tokens.{name}]")
    print(f'secret_sha256 = "{digest}"')
    print("namespaces = []  # what it reads: sources, namespaces, tags, statuses (empty: any)")
    print("write = []       # the namespaces it may write (empty: read-only)")
