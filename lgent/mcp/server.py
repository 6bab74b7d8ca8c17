"""L-gent as a Model Context Protocol server: one open LGent, its operations as MCP tools.

Each tool's input schema comes from its typed parameters (pydantic models where the library has
them) and its answer is structured JSON with an output schema. An LGentError comes back as a tool
error (``isError``) carrying the library's message; the server keeps running. ``register`` and
``remove`` exist only when the server is built with ``allow_writes``.

Only ``lgent serve --mcp`` imports this module, so ``import lgent`` never loads the MCP SDK.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, TypeVar

import pydantic
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, Field, PlainValidator

from lgent import __version__, limits
from lgent.errors import LGentError
from lgent.lgent import BuildProgress, LGent
from lgent.models import (
    CatalogEntry,
    FilledPipeline,
    QueryContext,
    QueryResponse,
    Resolution,
    ResolutionPreferences,
    TypeRequirement,
)
from lgent.serving import (
    ArtifactAnswer,
    PathsAnswer,
    RegisterAnswer,
    RemoveAnswer,
    SimilarAnswer,
    lean,
    paths_answer,
    register_answer,
    warm_up,
)

T = TypeVar("T")

MAX_MCP_LIMIT = 100
"""Most results one MCP call returns (agents read every one of them)."""

INSTRUCTIONS = (
    "L-gent finds AI-agent artifacts (agents, tools, prompts, pipelines) in a catalog: by name, "
    "by what they do, or by the types they connect. Use `search` first; `resolve` and "
    "`fill_holes` pick artifacts by input/output type; `get_artifact` shows one in full."
)

log = logging.getLogger("lgent.mcp")

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, a description of what you need, a type "
        "question ('PDF -> Summary') or a keyword query.",
    ),
]
Limit = Annotated[int, Field(ge=1, le=MAX_MCP_LIMIT, description="At most this many results.")]
Constraints = Annotated[
    tuple[Annotated[str, Field(max_length=200)], ...],
    Field(
        max_length=limits.MAX_CONTRACTS,
        description="Hard filters, e.g. 'latency < 2s', 'local execution', 'status: active'.",
    ),
]
Contract = Annotated[str, Field(max_length=limits.MAX_KEYWORD_LENGTH)]
Contracts = Annotated[
    tuple[Contract, ...],
    Field(max_length=limits.MAX_CONTRACTS, description="Required contracts, e.g. 'deterministic'."),
]
TypeName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=limits.MAX_TYPE_NAME_LENGTH,
        description="A type of the lattice, e.g. PDF or List[Document].",
    ),
]
ArtifactId = Annotated[
    str, Field(min_length=1, max_length=limits.MAX_ID_LENGTH, description="An artifact id.")
]
Version = Annotated[str | None, Field(description="A version (default: the latest).")]


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


def _lgent_model(model: type[BaseModel]) -> PlainValidator:
    return PlainValidator(_parser(model), json_schema_input_type=model)


Entry = Annotated[CatalogEntry, _lgent_model(CatalogEntry)]
Preferences = Annotated[ResolutionPreferences, _lgent_model(ResolutionPreferences)]
CallerContext = Annotated[QueryContext, _lgent_model(QueryContext)]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE_TOOLS = frozenset({"register", "remove"})
READ_ONLY = (
    "this server is read-only: {name} needs a server started with "
    "`lgent serve --mcp --allow-writes`"
)


class _Server(MCPServer[Any]):
    """An MCPServer that answers a call to a write tool it does not offer with a clear refusal."""

    refused: frozenset[str] = frozenset()

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        if name in self.refused:
            raise ToolError(READ_ONLY.format(name=name))
        return await super().call_tool(name, arguments, context)


async def _call(work: Awaitable[T]) -> T:
    """Await ``work``; an LGentError becomes a tool error with the library's message."""
    try:
        return await work
    except LGentError as err:
        pretty = getattr(err, "pretty", None)
        raise ToolError(pretty() if callable(pretty) else str(err)) from err


def build_mcp_server(
    lg: LGent,
    *,
    allow_writes: bool = False,
    warm: bool = False,
) -> MCPServer[Any]:
    """An MCP server over the open ``lg``. ``warm`` loads the brains in the background at start."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        task = asyncio.create_task(warm_up(lg)) if warm else None
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

    def tool(annotations: ToolAnnotations) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return server.tool(annotations=annotations, structured_output=True)

    @tool(_READ)
    async def search(
        query: Query,
        constraints: Constraints = (),
        limit: Limit = 10,
        context: Annotated[
            CallerContext | None,
            Field(
                description="What you were doing: artifacts used before (user_history) and the "
                "pipeline being built, with ??? for holes (current_pipeline)."
            ),
        ] = None,
        strict: Annotated[
            bool,
            Field(
                description="Read any keyword operator as grammar and fail on malformed syntax "
                "(by default the grammar is read only where clearly meant, never failing)."
            ),
        ] = False,
        explain: Annotated[
            bool, Field(description="Include each result's explanation tree.")
        ] = False,
    ) -> QueryResponse:
        """Find artifacts by name, by intent or by type: every brain that can help is asked and
        the answers fused. Results carry ids, scores, which brains found them (sources), and the
        query interpretation; serendipity lists suggestions beyond the results."""
        response = await _call(lg.query(query, constraints, context, limit, strict=strict))
        return lean(response, explain=explain)

    @tool(_READ)
    async def resolve(
        input_type: TypeName,
        output_type: TypeName,
        contracts: Contracts = (),
        constraints: Constraints = (),
        preferences: Annotated[
            Preferences | None,
            Field(description="Ranking weights (0..1) of success, recency, usage and version."),
        ] = None,
    ) -> Resolution:
        """The best healthy artifact that takes input_type (or a supertype) and gives output_type
        (or a subtype), with its score breakdown, the runners-up and the rejected candidates."""
        requirement = TypeRequirement(
            input_type=input_type,
            output_type=output_type,
            contracts=contracts,
            constraints=constraints,
        )
        return await _call(lg.resolve(requirement, preferences))

    @tool(_READ)
    async def fill_holes(
        pipeline: Annotated[
            list[Annotated[str, Field(max_length=limits.MAX_TYPE_NAME_LENGTH)]],
            Field(
                min_length=2,
                max_length=20,
                description=(
                    "Types or artifact ids in order, with ??? for each hole, "
                    "e.g. ['DataSource', '???', 'Database']."
                ),
            ),
        ],
        contracts: Contracts = (),
    ) -> FilledPipeline:
        """Fill every ??? of a pipeline with one artifact or a short chain of artifacts whose
        types fit between its neighbours."""
        return await _call(lg.fill_holes(pipeline, contracts))

    @tool(_READ)
    async def find_paths(
        source_type: TypeName,
        target_type: TypeName,
        max_length: Annotated[int, Field(ge=1, le=10, description="Most artifacts in a path.")] = 5,
        k: Annotated[int, Field(ge=1, le=MAX_MCP_LIMIT, description="How many paths.")] = 5,
    ) -> PathsAnswer:
        """Pipelines of artifacts from source_type to target_type, shortest first (ties: the
        healthier weakest link)."""
        paths = await _call(lg.find_paths(source_type, target_type, max_length=max_length, k=k))
        return paths_answer(source_type, target_type, paths)

    @tool(_READ)
    async def similar(artifact_id: ArtifactId, limit: Limit = 10) -> SimilarAnswer:
        """Artifacts closest in meaning to one artifact (not itself nor its other versions)."""
        hits = await _call(lg.similar(artifact_id, limit=limit))
        return SimilarAnswer(artifact_id=artifact_id, hits=tuple(hits))

    @tool(_READ)
    async def get_artifact(id: ArtifactId, version: Version = None) -> ArtifactAnswer:
        """One artifact in full (the latest version unless version is given) and its versions."""
        entry = await _call(lg.get(id, version))
        return ArtifactAnswer(entry=entry, versions=tuple(await _call(lg.versions(id))))

    if not allow_writes:
        server.refused = WRITE_TOOLS
        return server

    @tool(ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def register(
        entry: Annotated[Entry, Field(description="The artifact: id and name required.")],
    ) -> RegisterAnswer:
        """Add an artifact or a new version of one; the next search sees it."""
        result = await _call(lg.register(entry))
        return register_answer(entry, result)

    @tool(ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False))
    async def remove(id: ArtifactId, version: Version = None) -> RemoveAnswer:
        """Remove an artifact: every version, or only version."""
        removed = await _call(lg.remove(id, version))
        return RemoveAnswer(
            id=id, version=version, removed=removed, change_number=await lg.change_number()
        )

    return server


async def serve_stdio(
    home: str | os.PathLike[str] | None,
    *,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
) -> None:
    """Serve over stdin/stdout until the client hangs up, with one LGent open throughout."""
    async with LGent.open(home, progress=progress, freshness="snapshot") as lg:
        await build_mcp_server(lg, allow_writes=allow_writes, warm=True).run_stdio_async()


def run_stdio(
    home: str | os.PathLike[str] | None,
    *,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
) -> None:
    """Blocking entry point of ``lgent serve --mcp``. Logs go to stderr; stdout is the protocol."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="lgent-mcp: %(message)s")
    asyncio.run(serve_stdio(home, allow_writes=allow_writes, progress=progress))
