"""An artifact's versions as the semantic brain's records link them (``successor_to``), so
that ``find_similar`` never offers an artifact its own older or newer version."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from lgent.brains.semantic.records import EntryInfo

Successors = dict[str, set[str]]
"""Each artifact's newer versions: the records that name it ``successor_to``."""


def successors_of(entries: Mapping[str, EntryInfo]) -> Successors:
    """Who succeeds whom, read from every record once."""
    successors: Successors = {}
    for newer, info in entries.items():
        for older in info.successor_to:
            successors.setdefault(older, set()).add(newer)
    return successors


def lineage_of(
    artifact_id: str, entries: Mapping[str, EntryInfo], successors: Successors
) -> set[str]:
    """``artifact_id`` and its older and newer versions: ``successor_to`` chains either way."""

    def older(of: str) -> Iterable[str]:
        info = entries.get(of)
        return info.successor_to if info is not None else ()

    def newer(of: str) -> Iterable[str]:
        return sorted(successors.get(of, ()))

    found = {artifact_id}
    links: Callable[[str], Iterable[str]]
    for links in (older, newer):
        frontier = [artifact_id]
        while frontier:
            for linked in links(frontier.pop()):
                if linked not in found:
                    found.add(linked)
                    frontier.append(linked)
    return found
