"""Toolset completion (``COMPANIONS``): a tool among the best results that needs a kind of value
the request does not supply gets, right after it, the best producer of that kind, labelled as
its companion.

"Get the weather forecast at a street address": the weather tool needs a ``GeoPoint`` and the
request gives none, so a geocoder, which produces one, is offered beside it. The rule, for each
of the ``NEEDING`` best results of a plain-language request:

1. what it needs to run is read from the graph (``ArtifactInfo.needs``: the kinds inferred from
   its required parameters: ``lgent.graph.sides``); only value kinds (``lgent.kinds``) inferred
   from its schemas are filled, not a declared primitive (``json.string``), a catalog's own type
   or a signature written by hand, and not a kind that is everywhere (more than ``BROAD`` of
   the candidates produce it: a bare ``Text``, an ``Identifier``);
2. a need the request supplies a value of (``lgent.kinds.supplied``: a date, coordinates, a URL
   written in it) asks for nothing, nor one that a result above it already produces;
3. else the companion is the first artifact of the fused order, within its first ``REACH``,
   whose output is the kind or a subkind of it and which does not need a value of that kind
   itself (an editor of a file is given the file): the best producer for this request, never
   one it gave no sign of wanting.

At most ``MAX_COMPANIONS`` per response. A companion moves to just after the result that needs
it (the order stays one order, so pages agree) and its result says ``companion`` (what it
gives, to which result): on every surface.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING

from lgent.errors import LGentError
from lgent.fusion.state import FusionContext, QueryState
from lgent.fusion.supplied import request_kinds, shipped_vocabulary
from lgent.models import Companion

if TYPE_CHECKING:
    from lgent.graph.protocol import GraphReader

NEEDING = 3
"""The best results whose needs are read."""
REACH = 30
"""A companion comes from this many of the best fused results."""
MAX_COMPANIONS = 2
"""Companions one response offers at most."""
BROAD = 0.25
"""A need more than this share of the candidates within ``REACH`` produce is no need to fill."""


def _produces(graph: GraphReader, artifact_id: str, kind: str) -> bool:
    """Whether the artifact's output is ``kind``, a subkind, or a list of them (a list of
    places gives a place to the tool that needs one), and it does not itself need a value of
    that kind (a tool that edits the file it is given supplies no file)."""
    info = graph.artifact(artifact_id)
    if info is None or not info.output_type:
        return False
    given = info.output_type
    if given.startswith("List[") and given.endswith("]"):
        given = given[len("List[") : -1]
    try:
        return graph.is_subtype(given, kind) and not any(
            graph.is_subtype(kind, need) or graph.is_subtype(need, kind) for need in info.needs
        )
    except LGentError:
        return False


def find_companions(
    graph: GraphReader,
    ranked: Sequence[str],
    kinds: Container[str],
    supplied: frozenset[str] = frozenset(),
    inferred: Callable[[str], Container[str]] | None = None,
) -> dict[str, Companion]:
    """Companion id -> what it is the companion of, for the order ``ranked`` (best first) of a
    request that supplies values of the kinds ``supplied``; only needs that are ``kinds`` (value
    kinds, not a declared primitive or a catalog's own type) and, with ``inferred``, that were
    inferred from the needer's schemas (``inferred(id)``) are filled (see the module)."""
    reach = list(ranked[:REACH])
    found: dict[str, Companion] = {}
    for position, needer in enumerate(ranked[:NEEDING]):
        info = graph.artifact(needer)
        if info is None or needer in found:
            continue
        read = inferred(needer) if inferred is not None else kinds
        for need in info.needs:
            if len(found) >= MAX_COMPANIONS:
                return found
            if need in supplied or need not in kinds or need not in read:
                continue
            producers = [i for i in reach if _produces(graph, i, need)]
            if len(producers) > BROAD * len(reach) or any(
                i in producers for i in ranked[:position]
            ):
                continue
            chosen = next(
                (
                    i
                    for i in producers
                    if i != needer and i not in found and i not in ranked[:position]
                ),
                None,
            )
            if chosen is not None:
                found[chosen] = Companion(of=needer, kind=need)
    return found


def placed(order: Sequence[str], companions: dict[str, Companion]) -> list[str]:
    """``order`` with each companion moved to just after the result it serves (after the
    companions placed there before it)."""
    rest = [i for i in order if i not in companions]
    for companion_id, companion in companions.items():
        at = rest.index(companion.of) + 1
        while at < len(rest) and rest[at] in companions:
            at += 1
        rest.insert(at, companion_id)
    return rest


async def complete_toolsets(state: QueryState, context: FusionContext) -> None:
    """The step: companions for the needs of the best results of a plain-language request."""
    if not context.settings.companions or not state.plain or not state.fused:
        return
    graph = await context.graph()
    if graph is None:
        return
    ranked = [f.id for f in state.fused]
    vocabulary = shipped_vocabulary()
    supplied = request_kinds(state)
    companions = find_companions(graph, ranked, vocabulary.kinds, supplied, _inferred(state))
    if not companions:
        return
    by_id = {f.id: f for f in state.fused}
    state.fused = [by_id[i] for i in placed(ranked, companions)]
    state.companions = companions


def _inferred(state: QueryState) -> Callable[[str], frozenset[str]]:
    """The kinds an artifact's schemas were read to need (none for a hand-declared signature:
    its author chose its types, and ``compatible`` answers from them)."""

    def needs(artifact_id: str) -> frozenset[str]:
        snap = state.catalog
        entry = snap.entry(artifact_id) if artifact_id in snap else None
        if entry is None or not entry.kinds:
            return frozenset()
        return frozenset(k.type_expr for k in entry.tool_kinds().needs)

    return needs


__all__ = [
    "BROAD",
    "MAX_COMPANIONS",
    "NEEDING",
    "REACH",
    "complete_toolsets",
    "find_companions",
    "placed",
]
