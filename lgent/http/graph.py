"""An artifact's neighbourhood as nodes and edges, laid out and drawn in the browser.

The server says what surrounds one artifact, as the caller's scope sees it: what can feed it
(their output fits its input) and what can take its output, its lineage (the generations it
succeeds and that succeed it, the interface it implements, what forged it), what it depends
on and what depends on it, what it is part of and its parts. ``GET /artifacts/{id}/neighbourhood``
answers it as JSON; the artifact's page embeds the same answer, and its script
(``static/graph.js``) lays it out with dagre (``static/vendor/``, MIT, served from this server)
as a layered drawing in which no two boxes overlap and every edge label has its own place,
then draws it as SVG. A relation with more neighbours than ``PER_GROUP`` shows the first ones
and a node saying how many more (the artifact's page lists every part).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from lgent.serving import Card, cards_of

if TYPE_CHECKING:
    from lgent.lgent import LGent

PER_GROUP = 4
"""Most neighbours one relation shows (the rest are counted in one node: '+3 more')."""
PER_SIDE = 6
"""Most artifacts shown that feed it, or that take its output."""

Toward = Literal["in", "out"]

# (lineage group, edge label, whether the edge points at the artifact): read as "X label Y".
LINEAGE: tuple[tuple[str, str, Toward], ...] = (
    ("ancestors", "succeeded by", "in"),
    ("descendants", "succeeded by", "out"),
    ("implements", "implements", "out"),
    ("forged_by", "forged", "in"),
    ("dependencies", "depends on", "out"),
    ("dependents", "depends on", "in"),
    ("part_of", "part of", "out"),
    ("parts", "part of", "in"),
)


class GraphNode(BaseModel):
    """A box: an artifact (its card) or a count of those not shown (``more``)."""

    model_config = ConfigDict(frozen=True)

    id: str
    card: Card | None = None
    more: int = 0
    focus: bool = False


class GraphEdge(BaseModel):
    """An arrow ``source -> target`` read as "source label target"."""

    model_config = ConfigDict(frozen=True)

    source: str
    target: str
    label: str


class NeighbourhoodAnswer(BaseModel):
    """What ``GET /artifacts/{id}/neighbourhood`` answers: the boxes and arrows to draw."""

    model_config = ConfigDict(frozen=True)

    artifact_id: str
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]


async def neighbourhood(lg: LGent, artifact_id: str) -> NeighbourhoodAnswer:
    """What surrounds one artifact, as ``lg`` (a caller's view) sees it."""
    (center,) = await cards_of(lg, [artifact_id])
    lineage = await lg.lineage(artifact_id, depth=1)
    upstream = await lg.compatible(artifact_id, direction="upstream", limit=PER_SIDE + 1)
    downstream = await lg.compatible(artifact_id, direction="downstream", limit=PER_SIDE + 1)
    given, gives = center.signature.split(" -> ", 1)
    groups: list[tuple[str, str, Toward, list[str]]] = []
    for name, label, toward in LINEAGE:
        ids = list(dict.fromkeys(h.id for h in lineage.get(name, ()) if h.id != artifact_id))
        groups.append((name, label, toward, ids))
    groups.append(("feeds", f"feeds ({given})", "in", [s.id for s in upstream]))
    groups.append(("takes", f"takes its output ({gives})", "out", [s.id for s in downstream]))
    nodes = {artifact_id: GraphNode(id=artifact_id, card=center, focus=True)}
    edges: list[GraphEdge] = []
    for name, label, toward, ids in groups:
        limit = PER_SIDE if name in ("feeds", "takes") else PER_GROUP
        shown, more = ids[:limit], max(0, len(ids) - limit)
        for card in await cards_of(lg, [i for i in shown if i not in nodes]):
            nodes[card.id] = GraphNode(id=card.id, card=card)
        linked = [i for i in shown if i in nodes]
        if more:
            extra = f"+{name}"
            nodes[extra] = GraphNode(id=extra, more=more)
            linked.append(extra)
        for other in linked:
            source, target = (other, artifact_id) if toward == "in" else (artifact_id, other)
            edges.append(GraphEdge(source=source, target=target, label=label))
    return NeighbourhoodAnswer(
        artifact_id=artifact_id, nodes=tuple(nodes.values()), edges=tuple(edges)
    )
