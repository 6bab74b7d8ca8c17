"""L-gent as a Model Context Protocol server: one open LGent, its operations as MCP tools.

Written for models with small context windows: every answer is compact plain text (a search of
10 results is about a thousand tokens, see benchmarks/mcp_tokens.py), full entries come from
``get_artifact`` or ``search`` with ``detail="full"``, and each tool's description says what it
is for, when to prefer it and gives one example. An LGentError comes back as a tool error
(``isError``) carrying the library's message; the server keeps running. ``register`` and
``remove`` exist only when the server is built with ``allow_writes``.

Only ``lgent serve --mcp`` imports this module, so ``import lgent`` never loads the MCP SDK.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import unquote

import pydantic
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, Tool, ToolAnnotations
from pydantic import BaseModel, BeforeValidator, Field, PlainValidator, WithJsonSchema

from lgent import __version__, limits
from lgent.errors import LGentError, SettingsError
from lgent.facets import FACET_NAMES
from lgent.lgent import BuildProgress, LGent
from lgent.mcp import text
from lgent.models import CatalogEntry, EntityType, QueryContext, Status, TypeRequirement
from lgent.scopes import Scope
from lgent.serving import (
    PAGE_DEPTH,
    artifact_answer,
    cards_of,
    compatible_answer,
    freeze_heap,
    lineage_answer,
    list_page,
    paths_answer,
    query_page,
    register_answer,
    search_page,
    types_answer,
    warm_up,
)
from lgent.validation import QueryArguments, describe

T = TypeVar("T")

MAX_MCP_LIMIT = 50
LIST_TOP = 5
"""Values of each facet ``list_artifacts`` counts."""
"""Most results one MCP call returns (a model reads every one of them)."""

INSTRUCTIONS = (
    "L-gent finds AI-agent artifacts (agents, tools, prompts, pipelines) in a catalog. Start with "
    "search; use resolve or fill_holes to pick artifacts for typed pipeline steps."
)

log = logging.getLogger("lgent.mcp")

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, what you need in plain words, a type question or keyword syntax.",
    ),
]
Limit = Annotated[int, Field(ge=1, le=MAX_MCP_LIMIT, description="Results per page.")]
Most = Annotated[int, Field(ge=1, le=MAX_MCP_LIMIT, description="At most this many results.")]
Cursor = Annotated[
    str | None,
    BeforeValidator(lambda value: str(value) if isinstance(value, int) else value),
    Field(max_length=20, description="From the previous answer's 'More: cursor=...'."),
]
"""A string, as the answers print it; a number is taken too (clients may send "10" as 10)."""
Constraints = Annotated[
    tuple[Annotated[str, Field(max_length=limits.MAX_CONSTRAINT_LENGTH)], ...],
    Field(
        max_length=limits.MAX_CONTRACTS,
        description="Hard filters, e.g. 'latency < 2s', 'local execution', 'status:active'.",
    ),
]
Contracts = Annotated[
    tuple[Annotated[str, Field(max_length=limits.MAX_KEYWORD_LENGTH)], ...],
    Field(max_length=limits.MAX_CONTRACTS, description="Required contracts, e.g. 'deterministic'."),
]
TypeName = Annotated[str, Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)]
ArtifactId = Annotated[str, Field(min_length=1, max_length=limits.MAX_ID_LENGTH)]
Version = Annotated[str | None, Field(max_length=100, description="Default: the latest.")]
IdList = Annotated[
    tuple[Annotated[str, Field(max_length=limits.MAX_TYPE_NAME_LENGTH)], ...],
    Field(max_length=20),
]

SEARCH = """Find artifacts (agents, tools, prompts, pipelines) when you do not know the exact id: \
by name, by what it should do, or by types ('PDF -> Summary'). Start here. Each result gives id, \
kind, input -> output, owner, warnings, one line of description and why it matched; \
detail="full" gives whole entries. To pick one artifact for a typed step, prefer resolve.
Example: {"query": "extract tables from PDF files", "constraints": ["local execution"]}"""

GET_ARTIFACT = """Everything about one artifact (all fields, relations, versions, health), when \
a result's one line is not enough.
Example: {"id": "PDFParser_v2"}"""

RESOLVE = """Pick the one best healthy artifact for a pipeline step whose input and output types \
you know (subtypes count); deprecated, experimental or failing ones are rejected with reasons. \
Prefer it to search when the types are known.
Example: {"input_type": "PDF", "output_type": "SentimentScore", "contracts": ["deterministic"]}"""

FILL_HOLES = """Complete a pipeline: list its steps (types or artifact ids) with ??? for each gap; \
each gap gets one artifact or a short chain whose types fit. Use it for several gaps at once.
Example: {"pipeline": ["DataSource", "???", "Database"]}"""

FIND_PATHS = """Alternative chains of artifacts that turn one type into another, shortest first. \
Use it to compare options; fill_holes picks one for you.
Example: {"source_type": "RawHTML", "target_type": "Summary"}"""

SIMILAR = """Artifacts closest in meaning to a given one: alternatives and replacements.
Example: {"artifact_id": "PDFParser_v2"}"""

LINEAGE = """An artifact's generations, what it depends on, what depends on it, what forged \
it, what it implements. Check it before replacing an artifact.
Example: {"artifact_id": "PDFParser_v2"}"""

COMPATIBLE = """Artifacts whose types fit right after one (downstream: they accept its output) or \
right before it (upstream: they produce its input). Use it to extend a pipeline by one step.
Example: {"artifact_id": "PDFParser_v2", "direction": "downstream"}"""

LIST_ARTIFACTS = """Browse the catalog by exact values (kind, status, owner, input or output \
type, tag, source), in id order, a page at a time, with counts of each value of those facets \
over all that match (filter by one to narrow). For anything fuzzy, use search.
Example: {"kind": "agent", "status": "experimental"}"""

STATS = """Size of the catalog: artifacts, versions, types, relations, counts by kind and status.
Example: {}"""

TYPES_URI = "lgent://types"
KINDS_URI = "lgent://kinds"
TYPES_PAGE = 100
"""Types one resource lists."""
TYPES = """The catalog's types, most used first: how many artifacts produce and consume each, \
value kinds and the rules that find them, where each type comes from."""
KINDS = """The value kinds (URL, Date, FilePath...) inferred from tool schemas, most used first."""
TYPES_MATCHING = """The types whose name or description holds these words (URL-encoded)."""

REGISTER = """Add an artifact or a new version of one; the next search sees it.
Example: {"entry": {"id": "MyTool", "name": "MyTool", "input_type": "Text"}}"""

REMOVE = """Remove an artifact: every version, or only one.
Example: {"id": "MyTool"}"""


def _parser(model: type[BaseModel]) -> Callable[[Any], Any]:
    """Build the model through its own constructor, so a broken rule reads as the library words it
    and arrives as an argument error for the caller to fix (not as a server fault)."""

    def parse(value: Any) -> Any:
        if isinstance(value, model):
            return value
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {type(value).__name__}")
        try:
            return model(**value)
        except (LGentError, pydantic.ValidationError) as err:
            raise ValueError(str(err)) from None

    return parse


def _entry_schema() -> dict[str, Any]:
    """CatalogEntry's JSON schema without ``origin`` (what importers record of a source: a
    caller registering by hand has none, and its schema would triple the tool list's size; an
    entry that carries one is still taken)."""
    schema = CatalogEntry.model_json_schema()
    schema["properties"].pop("origin", None)
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:  # the remaining definitions are small and not recursive
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return inline(definitions[ref.removeprefix("#/$defs/")])
        return {key: inline(value) for key, value in node.items()}

    inlined: dict[str, Any] = inline(schema)
    return inlined


Entry = Annotated[
    CatalogEntry,
    PlainValidator(_parser(CatalogEntry)),
    WithJsonSchema(_entry_schema()),
]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE_TOOLS = frozenset({"register", "remove"})
READ_ONLY = (
    "ReadOnlyHomeError: this server is read-only: {name} needs a server started with "
    "`lgent serve --mcp --allow-writes`"
)


def compact_schema(schema: Any) -> Any:
    """A JSON schema in fewer tokens, meaning the same to a caller: no ``title`` on each node
    (pydantic repeats every name as a title), and an optional value written as its own schema
    rather than ``anyOf [schema, null]`` with ``default: null`` (leaving it out means null)."""
    if isinstance(schema, list):
        return [compact_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs") and isinstance(value, dict):
            kept[key] = {name: compact_schema(sub) for name, sub in value.items()}
        else:
            kept[key] = compact_schema(value)
    options = kept.get("anyOf")
    if "default" in kept and kept["default"] is None and isinstance(options, list):
        others = [o for o in options if o != {"type": "null"}]
        if len(others) == 1 and len(options) == 2 and isinstance(others[0], dict):
            rest = {k: v for k, v in kept.items() if k not in ("anyOf", "default")}
            return {**others[0], **rest}
    return kept


class _Server(MCPServer[Any]):
    """An MCPServer with compact input schemas, and a clear refusal of write tools it does not
    offer."""

    refused: frozenset[str] = frozenset()

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(update={"input_schema": compact_schema(tool.input_schema)})
            for tool in await super().list_tools()
        ]

    async def run_checked_stdio(self) -> None:
        """Serve over stdio, every malformed request answered (``lgent.mcp.stdio``)."""
        from lgent.mcp.stdio import checked_stdio

        async with checked_stdio() as (read_stream, write_stream):
            low = self._lowlevel_server
            await low.run(read_stream, write_stream, low.create_initialization_options())

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        if name in self.refused:
            raise ToolError(READ_ONLY.format(name=name))
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            strict_arguments(tool.fn_metadata.arg_model, arguments)
        return await super().call_tool(name, arguments, context)


INVALID = "InvalidArguments"
"""The kind an error message starts with when the call's arguments were refused; otherwise it
starts with the library's error class (``NotFoundError: ...``, ``IndexNotReadyError: ...``)."""


def strict_arguments(model: type[BaseModel], arguments: dict[str, Any]) -> None:
    """Check a tool call's arguments as the HTTP API checks a request body: an unknown argument
    is refused, and no value is coerced (``"limit": "5"`` and ``"limit": true`` are errors; the
    SDK alone would take both, and drop unknown names)."""
    known = {field.alias or name for name, field in model.model_fields.items()}
    unknown = sorted(set(arguments) - known)
    if unknown:
        takes = ", ".join(sorted(known)) or "no arguments"
        raise ToolError(
            f"{INVALID}: unknown argument(s): {', '.join(unknown)} (this tool takes: {takes})"
        )
    try:
        model.model_validate_json(json.dumps(arguments), strict=True)
    except pydantic.ValidationError as err:
        raise ToolError(f"{INVALID}: {describe(err)}") from None
    except (TypeError, ValueError) as err:  # not JSON at all (a client cannot send such)
        raise ToolError(f"{INVALID}: invalid arguments: {err}") from None


async def _call(work: Awaitable[T]) -> T:
    """Await ``work``; an LGentError becomes a tool error with the library's message."""
    try:
        return await work
    except LGentError as err:
        pretty = getattr(err, "pretty", None)
        message = pretty() if callable(pretty) else str(err)
        raise ToolError(f"{type(err).__name__.rstrip('_')}: {message}") from err


async def _checked(
    query: str,
    constraints: tuple[str, ...],
    context: QueryContext | None,
    limit: int,
    strict: bool,
) -> QueryArguments:
    """The search arguments through the model every surface validates a query with."""
    return QueryArguments.check(
        query=query, constraints=constraints, context=context, limit=limit, strict=strict
    )


def _offset(cursor: str | None) -> int:
    """The offset a cursor this server gave stands for (ASCII digits, within ``MAX_OFFSET``)."""
    if cursor is None or cursor == "":
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or int(cursor) > limits.MAX_OFFSET:
        raise ToolError(
            f"{INVALID}: cursor {cursor!r} is not one this server gave; leave it out to start"
        )
    return int(cursor)


def build_mcp_server(
    lg: LGent,
    *,
    allow_writes: bool = False,
    warm: bool = False,
    freeze: bool = False,
    scope: Scope | None = None,
) -> _Server:
    """An MCP server over the open ``lg``. ``warm`` loads the brains in the background at start;
    ``freeze`` then keeps what is alive out of the garbage collector's sight (a server process:
    ``serving.freeze_heap``). ``scope``: every tool answers as that caller sees the catalog
    and writes only what it may (``lgent.scopes``; default: the home's own user)."""
    home = lg
    if scope is not None:
        lg = lg.scoped(scope)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        task = asyncio.create_task(warm_up(home, freeze=freeze)) if warm else None
        try:
            yield {}
        finally:
            if task is not None:
                for problem in await task:
                    log.warning("warm-up: %s", problem)

    server = _Server(
        "lgent",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        lifespan=lifespan,
    )

    def tool(description: str, annotations: ToolAnnotations = _READ) -> Callable[[T], T]:
        return server.tool(  # type: ignore[return-value]
            description=description, annotations=annotations, structured_output=False
        )

    @tool(SEARCH)
    async def search(
        query: Query,
        constraints: Constraints = (),
        limit: Limit = 10,
        cursor: Cursor = None,
        detail: Literal["compact", "full"] = "compact",
        strict: Annotated[bool, Field(description="Fail on broken keyword syntax.")] = False,
        history: Annotated[IdList, Field(description="Artifacts you used before.")] = (),
        pipeline: Annotated[
            IdList, Field(description="The pipeline you are building, ??? for gaps.")
        ] = (),
    ) -> str:
        offset = _offset(cursor)
        context = None
        if history or pipeline:
            context = QueryContext(user_history=history, current_pipeline=pipeline)
        asked = await _call(_checked(query, constraints, context, limit, strict))
        if detail == "full":
            page = await _call(query_page(lg, asked, offset=offset, explain=True))
            return text.search_full(page)
        found = await _call(search_page(lg, asked, offset=offset))
        return text.search_text(found)

    @tool(GET_ARTIFACT)
    async def get_artifact(id: ArtifactId, version: Version = None) -> str:
        return text.artifact_text(await _call(artifact_answer(lg, id, version)))

    @tool(RESOLVE)
    async def resolve(
        input_type: TypeName,
        output_type: TypeName,
        contracts: Contracts = (),
        constraints: Constraints = (),
    ) -> str:
        requirement = TypeRequirement(
            input_type=input_type,
            output_type=output_type,
            contracts=contracts,
            constraints=constraints,
        )
        return text.resolve_text(await _call(lg.resolve(requirement)))

    @tool(FILL_HOLES)
    async def fill_holes(
        pipeline: Annotated[IdList, Field(min_length=2)],
        contracts: Contracts = (),
    ) -> str:
        return text.filled_text(await _call(lg.fill_holes(pipeline, contracts)))

    @tool(FIND_PATHS)
    async def find_paths(
        source_type: TypeName,
        target_type: TypeName,
        max_length: Annotated[int, Field(ge=1, le=10, description="Most artifacts a path.")] = 5,
        k: Annotated[int, Field(ge=1, le=MAX_MCP_LIMIT, description="How many paths.")] = 5,
    ) -> str:
        paths = await _call(lg.find_paths(source_type, target_type, max_length=max_length, k=k))
        return text.paths_text(paths_answer(source_type, target_type, paths))

    @tool(SIMILAR)
    async def similar(artifact_id: ArtifactId, limit: Most = 10) -> str:
        hits = await _call(lg.similar(artifact_id, limit=limit))
        cards = {c.id: c for c in await cards_of(lg, [h.id for h in hits])}
        return text.similar_text(artifact_id, [(cards[h.id], h) for h in hits if h.id in cards])

    @tool(LINEAGE)
    async def lineage(
        artifact_id: ArtifactId,
        depth: Annotated[int | None, Field(ge=1, le=100, description="Default: all.")] = None,
    ) -> str:
        groups = await _call(lg.lineage(artifact_id, depth=depth))
        return text.lineage_text(lineage_answer(artifact_id, groups))

    @tool(COMPATIBLE)
    async def compatible(
        artifact_id: ArtifactId,
        direction: Literal["downstream", "upstream"] = "downstream",
        limit: Most = 10,
    ) -> str:
        answer = await _call(compatible_answer(lg, artifact_id, direction, limit))
        return text.compatible_text(answer)

    @tool(LIST_ARTIFACTS)
    async def list_artifacts(
        kind: EntityType | None = None,
        status: Status | None = None,
        owner: Annotated[str | None, Field(max_length=limits.MAX_NAME_LENGTH)] = None,
        input_type: TypeName | None = None,
        output_type: TypeName | None = None,
        tag: Annotated[str | None, Field(max_length=limits.MAX_KEYWORD_LENGTH)] = None,
        source: Annotated[str | None, Field(max_length=limits.MAX_ID_LENGTH + 2_000)] = None,
        limit: Limit = 20,
        cursor: Cursor = None,
    ) -> str:
        filters = {
            "entity_type": kind.value if kind else None,
            "status": status.value if status else None,
            "author": owner,
            "input_type": input_type,
            "output_type": output_type,
            "tag": tag,
            "source": source,
        }
        page = await _call(
            list_page(
                lg, filters, offset=_offset(cursor), limit=limit, facets=FACET_NAMES, top=LIST_TOP
            )
        )
        return text.list_text(page)

    @tool(STATS)
    async def stats() -> str:
        return text.stats_text(await _call(lg.stats()))

    # The types are resources, not tools: the tool list every model reads stays within budget.
    @server.resource(TYPES_URI, name="types", description=TYPES, mime_type="text/plain")
    async def most_used_types() -> str:
        return text.types_text(await _call(types_answer(lg, limit=TYPES_PAGE)))

    @server.resource(KINDS_URI, name="kinds", description=KINDS, mime_type="text/plain")
    async def value_kinds() -> str:
        return text.types_text(await _call(types_answer(lg, kinds_only=True, limit=TYPES_PAGE)))

    @server.resource(
        TYPES_URI + "/{words}",
        name="types matching",
        description=TYPES_MATCHING,
        mime_type="text/plain",
    )
    async def matching_types(words: str) -> str:
        return text.types_text(await _call(types_answer(lg, unquote(words), limit=TYPES_PAGE)))

    if not allow_writes:
        server.refused = WRITE_TOOLS
        return server

    @tool(
        REGISTER,
        ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
    )
    async def register(entry: Entry) -> str:
        answer = register_answer(entry, await _call(lg.register(entry)))
        return (
            f"{answer.action} {answer.id} {answer.version} (change number {answer.change_number})"
        )

    @tool(
        REMOVE, ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)
    )
    async def remove(id: ArtifactId, version: Version = None) -> str:
        removed = await _call(lg.remove(id, version))
        number = await lg.change_number()
        return f"removed {removed} version(s) of {id} (change number {number})"

    return server


async def serve_stdio(
    home: str | os.PathLike[str] | None,
    *,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
    token: str | None = None,
) -> None:
    """Serve over stdin/stdout until the client hangs up, with one LGent open throughout;
    ``token``: a named token of ``[access.tokens]`` whose scope every tool answers for (None:
    the home's own user, who started the process)."""
    async with LGent.open(home, catalog=catalog, progress=progress, freshness="snapshot") as lg:
        scope = None if token is None else token_scope(lg, token)
        server = build_mcp_server(
            lg, allow_writes=allow_writes, warm=True, freeze=True, scope=scope
        )
        freeze_heap()
        await server.run_checked_stdio()


def run_stdio(
    home: str | os.PathLike[str] | None,
    *,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
    token: str | None = None,
) -> None:
    """Blocking entry point of ``lgent serve --mcp``. Logs go to stderr; stdout is the protocol."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="lgent-mcp: %(message)s")
    asyncio.run(
        serve_stdio(
            home, allow_writes=allow_writes, progress=progress, catalog=catalog, token=token
        )
    )


def token_scope(lg: LGent, token: str) -> Scope:
    """The scope of the named token ``token`` (its secret) in the home's ``[access.tokens]``;
    a ``SettingsError`` when the home knows no such token."""
    found = lg.settings.access.parsed().find(token)
    if found is None:
        raise SettingsError(
            "the token is not one of the home's named tokens ([access.tokens] in lgent.toml)"
        )
    return found


__all__ = ["PAGE_DEPTH", "build_mcp_server", "run_stdio", "serve_stdio"]
