"""Tools over their owners (``PARTS_FIRST``): a plain-language question for something to do is
answered with tools, each with the server or API it belongs to as context, not with the
server or API itself.

An importer makes a server (or an API) an artifact and each of its tools ``part_of`` it. The
owner's text sums up all its tools, so it matches most questions any of them answers and,
left alone, takes the places of tools: on multi-tool tasks over 70 real MCP servers the owning
server was in the top 10 of most answers. Here an artifact with parts moves below every
result without parts, and the first of its tools on the page gets the note "part of X (N more
of its tools match)". An owner keeps its place when the question asks for one: it names one
(an exact name), uses keyword syntax or a relationship, constrains the entity type, or says
it wants a server, an API or a service (``OWNER_WORDS``).
"""

from __future__ import annotations

import re

from lgent.fusion.rrf import Fused
from lgent.fusion.state import FusionContext, QueryState

LOOKED_AT = 100
"""Only this many of the best fused results are checked for parts and owners."""
OWNER_WORDS = frozenset(
    {"server", "servers", "api", "apis", "service", "services", "connector", "connectors"}
)
"""Words by which a question asks for the owners themselves (the kind of artifact, never a
name)."""
_WORD = re.compile(r"[a-z0-9]+")


def asks_for_owners(state: QueryState) -> bool:
    """Whether the question wants servers or APIs themselves (the rule then moves nothing)."""
    if not state.plain or any(k.attribute == "entity_type" for k in state.constraints):
        return True
    return not OWNER_WORDS.isdisjoint(_WORD.findall(state.text.lower()))


async def parts_first(state: QueryState, context: FusionContext) -> None:
    """The step: owners with parts below the results without, and their tools noted."""
    if not context.settings.parts_first or asks_for_owners(state) or not state.fused:
        return
    graph = await context.graph()
    if graph is None:
        return
    looked = [f.id for f in state.fused[:LOOKED_AT]]
    counts, wholes = await context.run(lambda: (graph.part_counts(looked), graph.wholes(looked)))
    if counts:
        parts = [f for f in state.fused if f.id not in counts]
        owners = [f for f in state.fused if f.id in counts]
        floor = parts[-1].score if parts else 0.0
        state.fused = parts + [
            Fused(f.id, min(f.score, floor) - 1e-9 * (n + 1), f.contributions)
            for n, f in enumerate(owners)
        ]
    notes = dict(state.notes)
    for artifact_id, said in _owner_notes(state.fused[:LOOKED_AT], wholes).items():
        notes[artifact_id] = (*notes.get(artifact_id, ()), *said)
    state.notes = notes


def _owner_notes(
    ranked: list[Fused], wholes: dict[str, tuple[str, int]]
) -> dict[str, tuple[str, ...]]:
    """``part of X`` on each ranked tool with an owner, the first of each owner's tools also
    saying how many more of them rank."""
    matching: dict[str, int] = {}
    for f in ranked:
        if f.id in wholes:
            whole = wholes[f.id][0]
            matching[whole] = matching.get(whole, 0) + 1
    notes: dict[str, tuple[str, ...]] = {}
    first: set[str] = set()
    for f in ranked:
        if f.id not in wholes:
            continue
        whole = wholes[f.id][0]
        more = matching[whole] - 1
        note = f"part of {whole}"
        if whole not in first and more:
            note += f" ({more} more of its tools match)"
        first.add(whole)
        notes[f.id] = (note,)
    return notes
