"""Fill the ``???`` holes of a pipeline, e.g. ``["DataSource", "???", "Database"]``.

Each run of holes sits between two known neighbours: a type name, or an artifact id (its output
type on the left; on the right its input type or any type it needs, the best bridge of all).
A one-artifact hole next to an artifact is first bridged by a declared link (``feeds``,
``lgent.graph.links``). A single healthy artifact that fits both sides
is preferred (the resolver picks the best); otherwise the healthiest shortest composition path
of healthy artifacts, of at most ``holes + 2`` steps. A hole at either end, a neighbour that is
neither a type nor an artifact, or a gap nothing can bridge raises a clear error.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from lgent.errors import DependencyError, QueryError
from lgent.graph.signatures import PathSearch
from lgent.limits import MAX_PIPELINE
from lgent.models import HOLE, FilledPipeline, PipelineStep, Resolution, TypeRequirement
from lgent.resolver.resolver import DependencyResolver, health_problems


def fill_holes(
    resolver: DependencyResolver, pipeline: Sequence[str], contracts: Sequence[str] = ()
) -> FilledPipeline:
    """Every ``???`` of ``pipeline`` filled with one artifact or a short path of them (the
    caller pins the graph, so every step reads one state of it)."""
    if not pipeline or len(pipeline) > MAX_PIPELINE:
        raise QueryError(f"a pipeline needs 1 to {MAX_PIPELINE} steps, got {len(pipeline)}")
    steps = [s.strip() for s in pipeline]
    blank = [str(n) for n, step in enumerate(steps) if not step]
    if blank:
        raise QueryError(
            f"pipeline step {', '.join(blank)} is empty: give a type, an artifact or '???'"
        )
    if HOLE not in steps:
        raise QueryError(f"the pipeline {' -> '.join(steps)} has no '???' hole to fill")
    for position, step in enumerate(steps):
        if step != HOLE:
            _known_step(resolver, step, position)
    if steps[0] == HOLE or steps[-1] == HOLE:
        raise QueryError(
            "a pipeline cannot start or end with '???': each hole needs a known step on both sides"
        )
    out: list[PipelineStep] = []
    index = 0
    while index < len(steps):
        if steps[index] != HOLE:
            out.append(PipelineStep(given=steps[index]))
            index += 1
            continue
        end = index
        while steps[end] == HOLE:
            end += 1
        linked = _linked(resolver, steps[index - 1], steps[end]) if end - index == 1 else None
        if linked is not None:
            out.append(linked)
            index = end
            continue
        left = _side(resolver, steps[index - 1], "output", index - 1)
        rights = _inputs(resolver, steps[end], end)
        out.append(_bridge_any(resolver, left, rights, end - index, tuple(contracts)))
        index = end
    return FilledPipeline(pipeline=tuple(steps), steps=tuple(out))


def _known_step(resolver: DependencyResolver, step: str, position: int) -> None:
    """A QueryError naming step ``position`` and the closest types and artifacts, unless it
    is a known type or artifact id."""
    graph = resolver.graph
    if graph.type_name(step) is not None or graph.artifact_id(step, fuzzy=False) is not None:
        return
    close = graph.closest_names(step, 3)
    artifacts = f"; close artifact ids: {', '.join(close)}" if close else ""
    raise QueryError(
        f"pipeline step {position} ({step!r}) is neither a known type nor an artifact id "
        f"({graph.unknown_type_message(step)}{artifacts})"
    )


def _side(resolver: DependencyResolver, step: str, side: str, position: int) -> str:
    """The type a hole meets at a known step: the type itself, or the artifact's ``side`` type."""
    graph = resolver.graph
    name = graph.type_name(step)
    if name is not None:
        return name
    artifact = graph.artifact_id(step, fuzzy=False)
    assert artifact is not None, f"step {position} was checked by _known_step"
    info = graph.artifact(artifact)
    assert info is not None, f"step {position} names an artifact the graph knows"
    typed = info.output_type if side == "output" else info.input_type
    if typed is None:
        raise QueryError(f"pipeline step {position} ({step}) has no {side} type to connect to")
    return typed


def _inputs(resolver: DependencyResolver, step: str, position: int) -> list[str]:
    """The types a hole may give to a known step: the type itself, or every type the artifact
    takes (its input type, then each of its needs: a writer needs a path and a text; and one
    of what it takes a list of)."""
    graph = resolver.graph
    artifact = graph.artifact_id(step, fuzzy=False) if graph.type_name(step) is None else None
    info = graph.artifact(artifact) if artifact is not None else None
    if info is None:
        return [_side(resolver, step, "input", position)]
    found = [t for t in (info.input_type, *info.needs) if t]
    found += [t[5:-1] for t in found if t.startswith("List[") and t.endswith("]")]
    if not found:
        _side(resolver, step, "input", position)  # raises: it takes no type
    return list(dict.fromkeys(found))


def _bridge_any(
    resolver: DependencyResolver,
    left: str,
    rights: Sequence[str],
    holes: int,
    contracts: tuple[str, ...],
) -> PipelineStep:
    """The best bridge from ``left`` to one of ``rights``: the single artifact the resolver
    scores best over all of them, else the first path (``_bridge`` for one right type)."""
    if len(rights) == 1:
        return _bridge(resolver, left, rights[0], holes, contracts)
    singles: list[tuple[float, PipelineStep]] = []
    for right in rights:
        with contextlib.suppress(DependencyError):
            single = resolver.resolve(
                TypeRequirement(input_type=left, output_type=right, contracts=contracts)
            )
            step = _single_step(single, left, right, holes)
            singles.append((single.score.total, step))
    if singles:
        return max(singles, key=lambda found: found[0])[1]
    failures: list[DependencyError] = []
    for right in rights:
        try:
            return _bridge(resolver, left, right, holes, contracts)
        except DependencyError as err:
            failures.append(err)
    raise failures[0]


def _linked(resolver: DependencyResolver, before: str, after: str) -> PipelineStep | None:
    """A one-artifact hole between known steps that a ``feeds`` link bridges
    (``lgent.graph.links.bridge``), the healthiest; None when no link does."""
    from lgent.graph.links import bridge

    graph = resolver.graph
    ids = [
        graph.artifact_id(s, fuzzy=False) if graph.type_name(s) is None else None
        for s in (before, after)
    ]
    if not any(ids):
        return None
    infos = [graph.artifact(i) if i else None for i in ids]
    left_type = infos[0].output_type if infos[0] else graph.type_name(before)
    right_type = infos[1].input_type if infos[1] else graph.type_name(after)
    found = bridge(graph, ids[0], ids[1], left_type, right_type)
    if not found:
        return None
    told = " and ".join(
        f"{a} feeds {b}"
        for a, b in ((ids[0], found[0]), (found[0], ids[1]))
        if a and b and b in graph.linked(a, "downstream")
    )
    return PipelineStep(
        filled_with=(found[0],),
        types=(left_type or before, right_type or after),
        reason=f"{found[0]} bridges {before} and {after}: {told or 'a declared link'}",
    )


def _single_step(single: Resolution, left: str, right: str, holes: int) -> PipelineStep:
    together = f"; the {holes} adjacent holes are filled as one" if holes > 1 else ""
    return PipelineStep(
        filled_with=(single.best.id,),
        types=(left, right),
        reason=f"{single.best.id} takes {left} and gives {right} "
        f"(the best of {single.considered} that fit){together}",
    )


def _bridge(
    resolver: DependencyResolver, left: str, right: str, holes: int, contracts: tuple[str, ...]
) -> PipelineStep:
    together = f"; the {holes} adjacent holes are filled as one" if holes > 1 else ""
    try:
        single = resolver.resolve(
            TypeRequirement(input_type=left, output_type=right, contracts=contracts)
        )
        return _single_step(single, left, right, holes)
    except DependencyError as err:
        single_error = err
    entries = resolver.entries
    for path in resolver.graph.find_paths(PathSearch(left, right, min(holes + 2, 6), 20)):
        if len(path.ids) < 2:
            continue
        found = entries(path.ids)
        if all(
            i in found
            and not health_problems(found[i])
            and set(contracts) <= set(found[i].contracts)
            for i in path.ids
        ):
            return PipelineStep(
                filled_with=path.ids,
                types=path.types,
                reason=f"no single healthy artifact takes {left} and gives {right}; composed "
                f"{' >> '.join(path.ids)} through {' -> '.join(path.types)}{together}",
            )
    raise DependencyError(
        f"cannot fill {left} -> ??? -> {right}: {single_error}; and no path of healthy artifacts "
        f"of at most {min(holes + 2, 6)} steps connects them",
        single_error.candidates,
    )
