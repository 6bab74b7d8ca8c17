"""L-gent as a tool router in front of MCP servers: their tools harvested into the catalog,
searched with L-gent's search, described as their servers list them, and called through the
server that owns them.

At start every configured server is started (or reached) and its tool list synced into the
catalog, each server on its own: one that fails is reported (in answers and on stderr), never
fatal. A server's ``notifications/tools/list_changed`` syncs its list again. A call starts the
owning server if it is not running (again, after it stopped) and passes its result and its
errors through; one that gives no answer within the server's timeout is a tool error. The
catalog gets each server's launch with environment and header names only: their values stay in
the configuration and in the server's process.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from lgent.errors import LGentError
from lgent.lgent import LGent
from lgent.mcp.router_config import ServerConfig
from lgent.mcp.upstream import Upstream
from lgent.models import CatalogEntry
from lgent.serving import PAGE_DEPTH, get_entry, one_line

SEARCH_LINE = 150
"""Characters of a tool's description a search answer shows."""
MAX_ARGUMENTS = 8
"""Arguments a search answer lists per tool (the rest are counted)."""

log = logging.getLogger("lgent.mcp.router")


class NotCallableError(LGentError):
    """The artifact is in the catalog but the router cannot call it (or its source did not say
    how it is called)."""


class Router:
    """The router's state: one open LGent and the configured servers (see the module)."""

    def __init__(self, lg: LGent, servers: Sequence[ServerConfig]) -> None:
        self.lg = lg
        self.upstreams = {s.server_id: Upstream(s, self._tools_changed) for s in servers}
        self._harvest: asyncio.Task[None] | None = None
        self._syncs: dict[str, asyncio.Lock] = {key: asyncio.Lock() for key in self.upstreams}

    def start(self) -> None:
        """Begin harvesting every server (``ready`` waits for it)."""
        if self._harvest is None:
            self._harvest = asyncio.create_task(self.harvest_all(), name="mcp-router-harvest")

    async def ready(self) -> None:
        """Wait until every server was harvested or found failing (once ``start`` was called;
        before, the catalog is answered from as it is)."""
        if self._harvest is not None:
            await asyncio.shield(self._harvest)

    async def harvest_all(self) -> None:
        """Sync every server's tools, then bring the brains current with them: the first search
        answers over the tools harvested (a server's later list changes are caught up in the
        background, as any write)."""
        await asyncio.gather(*(self._sync_reported(u) for u in self.upstreams.values()))
        await self.lg.catch_up()

    async def sync(self, upstream: Upstream) -> None:
        """Read ``upstream``'s tool list and sync it into the catalog as that server's."""
        async with self._syncs[upstream.config.server_id]:
            data = await upstream.list_tools()
            info = dict(data.get("serverInfo") or {})
            info["name"] = upstream.config.name  # the configuration's name is the server's id
            data = {**data, "serverInfo": info, "launch": upstream.config.launch()}
            report = await self.lg.import_tools_list(data, source=f"mcp-router:{upstream.name}")
            changed = report.result
            log.info(
                "MCP server %r: %d tools; %d added, %d updated, %d retired",
                upstream.name,
                len(data["tools"]),
                len(changed.added),
                len(changed.updated),
                len(changed.retired),
            )

    async def _sync_reported(self, upstream: Upstream) -> None:
        try:
            await self.sync(upstream)
        except LGentError as err:
            upstream.problem = upstream.problem or str(err)
            log.warning("%s", err)

    async def _tools_changed(self, upstream: Upstream) -> None:
        await self._sync_reported(upstream)

    def notes(self) -> list[str]:
        """One line per server that is not available, and why."""
        return [
            f"server {u.name!r} is not available: {u.problem.splitlines()[0]}"
            for u in self.upstreams.values()
            if u.problem and not u.running
        ]

    async def close(self) -> None:
        if self._harvest is not None and not self._harvest.done():
            self._harvest.cancel()
        await asyncio.gather(*(u.stop() for u in self.upstreams.values()))

    # -- the three tools ------------------------------------------------------------------------

    async def search(self, query: str, limit: int) -> str:
        """The ``limit`` best tools of the configured servers for ``query``, a few lines each."""
        await self.ready()
        response = await self.lg.query(query, constraints=["type:tool"], limit=PAGE_DEPTH)
        tools = [r.entry for r in response.results if self._owner_of(r.entry) is not None]
        shown = tools[:limit]
        count = len(tools)
        head = (
            f"{count} tools match"
            if count > 1
            else "1 tool matches"
            if tools
            else "No tool matches"
        )
        lines = [f"{head}; showing {len(shown)}. Call one with call(id, arguments)."]
        lines += [f"note: {n}" for n in self.notes()]
        for n, entry in enumerate(shown, start=1):
            lines += tool_lines(n, entry)
        return "\n".join(lines)

    async def describe(self, artifact_id: str) -> str:
        """The callable definition of one tool: the MCP Tool as its server lists it, and the
        server (compact JSON)."""
        await self.ready()
        entry = await get_entry(self.lg, artifact_id)
        definition = entry.callable_definition()
        if definition is None:
            raise NotCallableError(
                f"{entry.id} has no callable definition: its source did not say how to call it"
            )
        return json.dumps(definition, ensure_ascii=False, separators=(",", ":"))

    async def call(self, artifact_id: str, arguments: Mapping[str, Any]) -> Any:
        """The owning server's ``CallToolResult`` for one tool (UpstreamError when the server
        cannot start, stops while answering, or takes longer than its timeout)."""
        await self.ready()
        entry = await get_entry(self.lg, artifact_id)
        upstream = self._owner_of(entry)
        if upstream is None or entry.origin is None or entry.origin.tool is None:
            servers = ", ".join(sorted(u.name for u in self.upstreams.values()))
            raise NotCallableError(
                f"{entry.id} is not a tool of a server this router runs ({servers})"
            )
        name = str(entry.origin.tool.get("name", ""))
        return await upstream.call(name, dict(arguments))

    def _owner_of(self, entry: CatalogEntry) -> Upstream | None:
        origin = entry.origin
        if origin is None or origin.protocol != "mcp" or origin.role != "tool":
            return None
        return self.upstreams.get(origin.server or "")


def tool_lines(n: int, entry: CatalogEntry) -> list[str]:
    """A tool in two lines: id and description; its arguments (``?`` for optional) and types,
    and what it returns."""
    tool = entry.origin.tool if entry.origin is not None and entry.origin.tool else {}
    description = str(tool.get("description") or entry.description)
    lines = [f"{n}. {entry.id}: {one_line(description, SEARCH_LINE)}"]
    signature = "(" + arguments_text(tool.get("inputSchema")) + ")"
    returned = returns_text(tool.get("outputSchema"))
    lines.append("   " + signature + (f" -> {returned}" if returned else ""))
    return lines


def arguments_text(schema: Any) -> str:
    """``url: string, max_length?: integer`` for a tool's input schema."""
    if not isinstance(schema, Mapping):
        return ""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    names = [*(n for n in properties if n in needed), *(n for n in properties if n not in needed)]
    items = [
        f"{name}{'' if name in needed else '?'}: {type_text(properties[name])}"
        for name in names[:MAX_ARGUMENTS]
    ]
    if len(names) > MAX_ARGUMENTS:
        items.append(f"+{len(names) - MAX_ARGUMENTS} more")
    return ", ".join(items)


def type_text(schema: Any) -> str:
    """A JSON Schema's type in a word or two: ``string``, ``array of string``, ``a|b``."""
    if not isinstance(schema, Mapping):
        return "any"
    if isinstance(schema.get("enum"), list):
        values = [json.dumps(v, ensure_ascii=False) for v in schema["enum"][:4]]
        return "|".join(values) + ("|..." if len(schema["enum"]) > 4 else "")
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        return f"array of {type_text(schema.get('items'))}"
    if isinstance(kind, str):
        return kind
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        kinds = [type_text(o) for o in options if o != {"type": "null"}]
        return "|".join(dict.fromkeys(kinds)) or "null"
    return "object" if "properties" in schema else "any"


def returns_text(schema: Any) -> str:
    """What an output schema gives (a ``{"result": ...}`` wrapper unwrapped); "" for none."""
    if not isinstance(schema, Mapping):
        return ""
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and list(properties) == ["result"]:
        return type_text(properties["result"])
    if isinstance(properties, Mapping) and properties:
        return "{" + ", ".join(list(properties)[:MAX_ARGUMENTS]) + "}"
    return type_text(schema)


__all__ = ["NotCallableError", "Router", "arguments_text", "tool_lines", "type_text"]
