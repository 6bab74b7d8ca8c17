"""Declared links as composition edges: ``A feeds B`` (an OpenAPI 3 response link, or a
``feeds`` relation written in a manifest) says that what A returns is meant to go into B,
whatever their types say, so B follows A in ``compatible``, ``path`` and ``fill``.

- ``compatible``: the artifacts A feeds come first downstream of it (a link is the API's own
  word), those that feed B first upstream of it; then the ones types connect.
- ``path`` from S to T: besides the pipelines types make, ``A > B`` for each link whose A
  takes S (one of its input types or needs is S or a supertype of it) and whose B gives T
  (an output of B is T or a subtype); a linked pipeline ranks before the typed ones of its
  length.
- ``fill`` ``X ??? Y``: an artifact X feeds that feeds Y, or that X feeds and whose output
  fits Y's input, or that feeds Y and takes X's output (``bridge``).

Deprecated and retired artifacts are left out unless asked for, as everywhere in composition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from lgent.graph.lineage import FEEDS, LineageGraph
from lgent.graph.signatures import CompositionPath, Direction, Signature

if TYPE_CHECKING:
    from lgent.graph.artifacts import ArtifactInfo
    from lgent.graph.protocol import GraphReader

Sides = Callable[[str], tuple[tuple[str, ...], tuple[str, ...]]]
"""An artifact's input types (needs included) and output types, by its id."""
Fits = Callable[[str, str], bool]
"""``fits(a, b)``: whether type ``a`` is ``b`` or a subtype of it."""


def linked(lineage: LineageGraph, artifact_id: str, direction: Direction) -> list[str]:
    """The artifacts ``artifact_id`` feeds (downstream) or that feed it (upstream), by id."""
    follow = lineage.outgoing(FEEDS) if direction == "downstream" else lineage.incoming(FEEDS)
    return sorted({other for _, other in follow(artifact_id)} - {artifact_id})


def signature(info: ArtifactInfo) -> Signature:
    """The signature a linked artifact is answered with (its best ports, which may be none)."""
    return Signature(info.id, info.input_type, info.output_type, info.usable, info.health)


def linked_signatures(
    lineage: LineageGraph,
    info: Callable[[str], ArtifactInfo | None],
    artifact_id: str,
    direction: Direction,
    include_unusable: bool,
) -> list[Signature]:
    """The linked artifacts of ``artifact_id`` as signatures, healthiest first."""
    found = [info(i) for i in linked(lineage, artifact_id, direction)]
    usable = [f for f in found if f is not None and (include_unusable or f.usable)]
    return [signature(f) for f in sorted(usable, key=lambda f: (-f.health, f.id))]


def feeds_pairs(lineage: LineageGraph) -> Iterable[tuple[str, str]]:
    """Every ``(source, target)`` of a ``feeds`` relation."""
    return ((s, t) for s, t in lineage.pairs_of(FEEDS) if s != t)


def linked_paths(
    pairs: Iterable[tuple[str, str]],
    info: Callable[[str], ArtifactInfo | None],
    sides: Sides,
    fits: Fits,
    source: str,
    target: str,
    *,
    include_unusable: bool = False,
    allowed: Callable[[str], bool] | None = None,
) -> list[CompositionPath]:
    """The two-step pipelines ``A > B`` from ``source`` to ``target`` that a link makes,
    healthiest first."""
    found: list[CompositionPath] = []
    for first, second in pairs:
        a, b = info(first), info(second)
        if a is None or b is None or (allowed and not (allowed(first) and allowed(second))):
            continue
        if not include_unusable and not (a.usable and b.usable):
            continue
        takes, _ = sides(first)
        _, gives = sides(second)
        given = next((t for t in gives if fits(t, target)), None)
        if given is None or not any(fits(source, t) for t in takes):
            continue
        between = a.output_type or b.input_type or source
        found.append(
            CompositionPath((first, second), (source, between, given), min(a.health, b.health))
        )
    found.sort(key=lambda p: (-p.health, p.ids))
    return found


def merged(
    typed: Sequence[CompositionPath], links: Sequence[CompositionPath], k: int
) -> list[CompositionPath]:
    """The pipelines of both lists, shortest first (the linked ones first within a length,
    each list's own order kept), each once, the first ``k``."""
    seen: set[tuple[str, ...]] = set()
    every = sorted([*links, *typed], key=len)
    found = []
    for path in every:
        if path.ids not in seen:
            seen.add(path.ids)
            found.append(path)
    return found[:k]


def bridge(
    graph: GraphReader,
    left: str | None,
    right: str | None,
    left_type: str | None,
    right_type: str | None,
) -> list[str]:
    """What links put between the known steps of a one-artifact hole: ``left`` and ``right``
    are the neighbouring artifacts' ids (None for a type), ``left_type`` / ``right_type`` the
    types met there (None when the artifact declares none). Healthiest first."""
    after = graph.linked(left, "downstream") if left else []
    before = graph.linked(right, "upstream") if right else []
    chosen: list[str] = [i for i in after if i in before]
    for candidate in after:
        out = _info(graph, candidate)
        if (
            right_type
            and out is not None
            and out.output_type
            and _fits(graph, out.output_type, right_type)
        ):
            chosen.append(candidate)
    for candidate in before:
        takes = _info(graph, candidate)
        if (
            left_type
            and takes is not None
            and any(_fits(graph, left_type, t) for t in (takes.input_type, *takes.needs) if t)
        ):
            chosen.append(candidate)
    infos = [
        i for i in (graph.artifact(c) for c in dict.fromkeys(chosen)) if i is not None and i.usable
    ]
    return [i.id for i in sorted(infos, key=lambda i: -i.health)]


def _info(graph: GraphReader, artifact_id: str) -> ArtifactInfo | None:
    found = graph.artifact(artifact_id)
    return found if found is not None and found.usable else None


def _fits(graph: GraphReader, a: str, b: str) -> bool:
    from lgent.errors import LGentError

    try:
        return graph.is_subtype(a, b)
    except LGentError:
        return False


__all__ = [
    "bridge",
    "feeds_pairs",
    "linked",
    "linked_paths",
    "linked_signatures",
    "merged",
    "signature",
]
