"""Serendipity: useful suggestions the caller did not ask for, never one of the results.

Three sources, in order of confidence:

1. Pipeline holes in the context (``["DataSource", "???", "Database"]``): the best composition
   paths from the type before the hole to the type after it, preferring paths through a result
   ("A >> B fills DataSource -> ??? -> Database").
2. The caller's history (``user_history``): an artifact used before that composes with a top
   result, before or after it ("You've used Summarizer_v4 before: it composes after X").
3. Downstream partners of the top result: what can consume its output, completing a pipeline,
   when few artifacts can (``MAX_CONSUMERS``): where many can take it (plain text, say), the
   healthiest three would be the same generic suggestion under every query producing that type.

A suggestion that breaks the query's constraints is not made, except a path filling a hole of
the caller's own pipeline: that one is kept after the others, at half confidence, saying which
constraint it breaks (the caller asked to fill that hole).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from lgent.graph.signatures import PathSearch
from lgent.models import HOLE, CatalogEntry, QueryContext, SerendipityItem

if TYPE_CHECKING:
    from lgent.fusion.constraints import Constraint
    from lgent.fusion.state import FusionContext, QueryState
    from lgent.graph.protocol import GraphReader

MAX_CONSUMERS = 10
"""A result whose output more artifacts than this can take gets no downstream suggestion."""


def suggest(
    results: Sequence[CatalogEntry],
    context: QueryContext | None,
    graph: GraphReader,
    *,
    limit: int = 3,
    violations: Callable[[str], list[str]] | None = None,
    result_ids: Iterable[str] | None = None,
) -> list[SerendipityItem]:
    """Up to ``limit`` suggestions, none of them a result id, best first.

    ``results``: the best results, best first (suggestions start from the first three);
    ``result_ids``: every result's id, when there are more results than ``results``.
    ``violations(id)`` names the query constraints an artifact breaks: such artifacts are not
    suggested, unless they fill a hole of the caller's pipeline (then they come last, at half
    confidence, and say what they break).
    """
    every = {e.id for e in results} | set(result_ids or ())
    taken = set(every)
    holes: list[SerendipityItem] = []
    others: list[SerendipityItem] = []
    if context is not None:
        holes = _hole_suggestions(results, every, context.current_pipeline, graph)
        others = _history_suggestions(results, context.user_history, graph)
    others += _downstream_partners(results, graph)
    kept: list[tuple[bool, int, SerendipityItem]] = []
    for order, item in enumerate([*holes, *others]):
        if item.artifact_id in taken:
            continue
        taken.add(item.artifact_id)
        broken = violations(item.artifact_id) if violations is not None else []
        if broken and order >= len(holes):
            continue
        if broken:
            item = item.model_copy(
                update={
                    "reason": f"{item.reason} (note: outside your constraints: {'; '.join(broken)})",
                    "confidence": round(item.confidence / 2, 3),
                }
            )
        kept.append((bool(broken), order, item))
    kept.sort(key=lambda t: (t[0], t[1]))
    return [item for _, _, item in kept[:limit]]


def _hole_suggestions(
    results: Sequence[CatalogEntry],
    result_ids: set[str],
    pipeline: Sequence[str],
    graph: GraphReader,
) -> list[SerendipityItem]:
    items: list[SerendipityItem] = []
    for index, step in enumerate(pipeline):
        if step.strip() != HOLE or index == 0 or index == len(pipeline) - 1:
            continue
        before, after = graph.type_name(pipeline[index - 1]), graph.type_name(pipeline[index + 1])
        if before is None or after is None:
            continue
        items += _through_results(results, before, after, graph)
        paths = graph.find_paths(PathSearch(before, after, max_length=3, k=5))
        paths.sort(key=lambda p: (not (set(p.ids) & result_ids), len(p.ids), -p.health))
        shape = f"{pipeline[index - 1]} -> ??? -> {pipeline[index + 1]}"
        for path in paths:
            fresh = [i for i in path.ids if i not in result_ids] or list(path.ids)
            through = set(path.ids) & result_ids
            chain = " >> ".join(path.ids)
            reason = f"Composing {chain} fills {shape} (types {' -> '.join(path.types)})"
            if through:
                reason += f"; it goes through your result {sorted(through)[0]}"
            confidence = round(path.health * (0.95 if through else 0.8) / len(path.ids) ** 0.25, 3)
            items.append(
                SerendipityItem(
                    artifact_id=fresh[0], reason=reason, confidence=confidence, composition=path.ids
                )
            )
    return items


def _through_results(
    results: Sequence[CatalogEntry], before: str, after: str, graph: GraphReader
) -> list[SerendipityItem]:
    """Compositions that put a top result inside the hole: ``before`` >> ... >> R >> ... >> ``after``."""
    items: list[SerendipityItem] = []
    for top in results[:3]:
        if top.input_type is None or top.output_type is None:
            continue
        head = _bridge(before, top.input_type, graph)
        tail = _bridge(top.output_type, after, graph)
        if head is None or tail is None:
            continue
        chain = (*head, top.id, *tail)
        fresh = [i for i in chain if i != top.id]
        if not fresh:
            continue
        items.append(
            SerendipityItem(
                artifact_id=fresh[0],
                confidence=0.85,
                composition=chain,
                reason=f"Composing {' >> '.join(chain)} puts your result {top.id} "
                f"into the {before} -> ??? -> {after} pipeline",
            )
        )
    return items


def _bridge(source: str, target: str, graph: GraphReader) -> tuple[str, ...] | None:
    """No artifact when ``source`` already fits ``target``, else the best short path, else None."""
    if graph.type_name(source) is None or graph.type_name(target) is None:
        return None
    if graph.is_subtype(source, target):
        return ()
    paths = graph.find_paths(PathSearch(source, target, max_length=2, k=1))
    return paths[0].ids if paths else None


_WORD = re.compile(r"[A-Za-z0-9][\w.\-]*")


def _history_suggestions(
    results: Sequence[CatalogEntry], history: Sequence[str], graph: GraphReader
) -> list[SerendipityItem]:
    items: list[SerendipityItem] = []
    used: list[str] = []
    for line in history:
        for word in _WORD.findall(line):
            found = graph.artifact_id(word, fuzzy=False)
            if found is not None and found not in used:
                used.append(found)
    for past in used:
        for top in results[:3]:
            if top.id == past:
                continue
            if graph.compose_check(top.id, past):
                items.append(
                    SerendipityItem(
                        artifact_id=past,
                        confidence=0.75,
                        composition=(top.id, past),
                        reason=f"You've used {past} before: it can take {top.id}'s output ({top.id} >> {past})",
                    )
                )
            elif graph.compose_check(past, top.id):
                items.append(
                    SerendipityItem(
                        artifact_id=past,
                        confidence=0.7,
                        composition=(past, top.id),
                        reason=f"You've used {past} before: its output can feed {top.id} ({past} >> {top.id})",
                    )
                )
    return items


def _downstream_partners(
    results: Sequence[CatalogEntry], graph: GraphReader
) -> list[SerendipityItem]:
    items: list[SerendipityItem] = []
    for top in results[:2]:
        if top.output_type is None or not graph.knows(top.id):
            continue  # the catalog may hold an artifact the graph has not caught up with yet
        consumers = graph.find_compatible(top.id, "downstream", limit=MAX_CONSUMERS + 1)
        if len(consumers) > MAX_CONSUMERS:
            continue
        for sig in consumers[:3]:
            items.append(
                SerendipityItem(
                    artifact_id=sig.id,
                    confidence=round(0.5 * sig.health, 3),
                    composition=(top.id, sig.id),
                    reason=f"{sig.id} can take {top.id}'s output ({top.output_type}): {top.id} >> {sig.id}",
                )
            )
    return items


async def suggestions(state: QueryState, context: FusionContext) -> None:
    """The step: up to ``fusion.serendipity`` suggestions from the best results, the caller's
    pipeline and history; without a graph, a warning that none can be made."""
    from lgent.fusion.results import SUGGESTED_FROM

    graph = await context.graph()
    if graph is None:
        state.warnings.append("no brain composes artifacts: no suggestions or lineage notes")
        return
    leading = [state.entries[f.id] for f in state.top[:SUGGESTED_FROM]]
    result_ids = [f.id for f in state.top]
    violations = _violations(state.constraints, context)
    state.suggestions = await context.run(
        lambda: suggest(
            leading,
            state.arguments.context,
            graph,
            limit=context.settings.serendipity,
            violations=violations,
            result_ids=result_ids,
        )
    )


def _violations(
    constraints: Sequence[Constraint], context: FusionContext
) -> Callable[[str], list[str]]:
    def violations(artifact_id: str) -> list[str]:
        if not constraints:
            return []
        entry = context.entry(artifact_id)
        if entry is None:
            return ["not in the catalog"]
        return [c.description for c in constraints if not c.admits(entry)]

    return violations
