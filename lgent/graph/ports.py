"""An artifact's ports in the composition index, and the way back from a port to its artifact.

The composition index knows signatures, one (input, output) pair each; an artifact with several
input or output ports (``sides.py``) is registered once per pair: its first pair under its own
id, the others as ``<id>\\x1f<n>`` (``PORT_SEP`` never occurs in an id). Everything the graph
answers is mapped back to artifact ids here: paths that pass one artifact twice are dropped,
and an artifact found through several ports comes once, at its best.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterable, Iterator, Sequence

from lgent.graph.signatures import CompositionPath, Ranked, Signature

PORT_SEP = "\x1f"


def artifact_of(port_id: str) -> str:
    """The artifact a port id belongs to."""
    return port_id.split(PORT_SEP, 1)[0]


class Ports:
    """Each artifact's port ids and how much each counts (its fit: confidence x specificity)."""

    def __init__(self) -> None:
        self._of: dict[str, tuple[tuple[str, float], ...]] = {}

    def set(self, artifact_id: str, ports: Sequence[tuple[str, float]]) -> None:
        if len(ports) == 1 and ports[0] == (artifact_id, 1.0):
            self._of.pop(artifact_id, None)  # the common case keeps no entry
        else:
            self._of[artifact_id] = tuple(ports)

    def pop(self, artifact_id: str) -> list[str]:
        """Forget the artifact's ports; their ids (its own id when it kept no entry)."""
        found = self._of.pop(artifact_id, None)
        return [artifact_id] if found is None else [p for p, _ in found] or [artifact_id]

    def of(self, artifact_id: str) -> list[str]:
        """The artifact's port ids, best pair first."""
        found = self._of.get(artifact_id)
        return [artifact_id] if found is None else [p for p, _ in found]

    def any(self) -> bool:
        """Whether some artifact has more than one port pair (or an inferred one)."""
        return bool(self._of)

    def fit(self, port_id: str) -> float:
        found = self._of.get(artifact_of(port_id))
        if found is None:
            return 1.0
        return next((f for p, f in found if p == port_id), 1.0)


def artifact_signature(sig: Signature) -> Signature:
    """``sig`` named by its artifact's id."""
    found = artifact_of(sig.id)
    return sig if found == sig.id else dataclasses.replace(sig, id=found)


def distinct_signatures(sigs: Iterable[Signature], leave_out: str = "") -> list[Signature]:
    """``sigs`` by artifact, each artifact once at its first (best) port, ``leave_out`` left
    out."""
    seen: set[str] = {leave_out}
    found: list[Signature] = []
    for sig in sigs:
        named = artifact_signature(sig)
        if named.id not in seen:
            seen.add(named.id)
            found.append(named)
    return found


def artifact_path(path: CompositionPath) -> CompositionPath | None:
    """``path`` through artifacts rather than ports; None when it passes one artifact twice."""
    ids = tuple(artifact_of(i) for i in path.ids)
    if len(set(ids)) < len(ids):
        return None
    return path if ids == path.ids else dataclasses.replace(path, ids=ids)


def distinct_paths(paths: Iterable[CompositionPath], k: int) -> list[CompositionPath]:
    """The first ``k`` different pipelines of artifacts among ``paths`` (in their order)."""
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    found: list[CompositionPath] = []
    for path in paths:
        named = artifact_path(path)
        if named is None or (named.ids, named.types) in seen:
            continue
        seen.add((named.ids, named.types))
        found.append(named)
        if len(found) >= k:
            break
    return found


def artifact_groups(groups: Iterable[Ranked]) -> list[Ranked]:
    """Each group with its ports named by their artifacts (an artifact once per group)."""
    return [_artifact_group(g) for g in groups]


def _artifact_group(group: Ranked) -> Ranked:
    if not any(PORT_SEP in i for i in group.ids):
        return group
    ids: list[str] = []
    health: list[float] = []
    usable = 0
    seen: set[str] = set()
    for n, (port_id, weight) in enumerate(zip(group.ids, group.health, strict=True)):
        artifact = artifact_of(port_id)
        if artifact in seen:
            continue
        seen.add(artifact)
        ids.append(artifact)
        health.append(weight)
        usable += n < group.usable
    return dataclasses.replace(group, ids=tuple(ids), health=tuple(health), usable=usable)


def artifact_members(
    members: Iterator[tuple[str, CompositionPath]],
) -> Iterator[tuple[str, CompositionPath]]:
    """Pipeline members by artifact, each once, with its witness path through artifacts."""
    seen: set[str] = set()
    for port_id, path in members:
        artifact = artifact_of(port_id)
        named = artifact_path(path)
        if artifact in seen or named is None:
            continue
        seen.add(artifact)
        yield artifact, named


def first_compatible(
    streams: Sequence[Iterator[Signature]], limit: int | None, leave_out: str
) -> list[Signature]:
    """The ports' matches (each stream healthiest first), port by port, each cut where none
    of what follows can be among the first ``limit`` distinct artifacts (``leave_out`` not
    counted): what ``distinct_signatures`` of them, sorted by health then artifact, keeps the
    first ``limit`` of, as from every match (a tie at the cut keeps every match of that
    health). ``limit=None`` reads every match."""
    taken: list[list[Signature]] = [[] for _ in streams]
    if limit is None:
        return [sig for stream in streams for sig in stream]
    tagged = [((n, sig) for sig in stream) for n, stream in enumerate(streams)]
    counted: set[str] = {leave_out}
    cut: float | None = None
    for n, sig in heapq.merge(*tagged, key=lambda pair: -pair[1].health):
        if cut is not None and sig.health < cut:
            break
        taken[n].append(sig)
        counted.add(artifact_of(sig.id))
        if cut is None and len(counted) > limit:
            cut = sig.health
    return [sig for part in taken for sig in part]
