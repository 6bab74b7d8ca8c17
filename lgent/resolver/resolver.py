"""DependencyResolver: a type requirement in, the best healthy artifact out, or why not.

Candidates are the artifacts whose input accepts the required input and whose output is the
required output or a subtype (the graph brain's lattice decides). Each must then be healthy
(status active, and a success rate, when one is recorded, above 0.5), carry every required contract and pass every
constraint; the survivors are ranked by ``ResolutionPreferences``. When none survives, the
``DependencyError`` lists the closest candidates and what each failed.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from lgent.errors import DependencyError, TypeLatticeError
from lgent.fusion.constraints import parse_constraints
from lgent.graph.protocol import GraphReader
from lgent.health import Health, HealthFacts
from lgent.models import (
    CatalogEntry,
    RankedCandidate,
    Rejection,
    Resolution,
    ResolutionPreferences,
    TypeRequirement,
    now_utc,
)
from lgent.resolver.ranking import preference_score, preference_total

RUNNERS_UP = 4
MAX_REJECTED = 20
CLOSEST = 5

Entries = Callable[[Sequence[str]], Mapping[str, CatalogEntry]]


def health_problems(entry: HealthFacts) -> list[str]:
    """Why an artifact is not healthy enough to be resolved to (empty when it is)."""
    return Health.of(entry).problems()


class DependencyResolver:
    """Resolves type requirements against the catalog graph's lattice and the catalog's entries."""

    def __init__(
        self, graph: GraphReader, entries: Entries, *, clock: Callable[[], datetime] = now_utc
    ) -> None:
        self.graph = graph
        self.entries = entries
        self.clock = clock

    def resolve(
        self, requirement: TypeRequirement, preferences: ResolutionPreferences | None = None
    ) -> Resolution:
        """The best artifact for ``requirement``; raises DependencyError when there is none.
        The caller pins the graph, so the candidates and the near misses read one state of it."""
        prefs = preferences or ResolutionPreferences()
        wanted_in = self._type(requirement.input_type, "input_type")
        wanted_out = self._type(requirement.output_type, "output_type")
        constraints = parse_constraints(list(requirement.constraints))
        candidates = self.graph.type_candidates(wanted_in, wanted_out)
        # Health, contracts and preferences are read from the graph brain's notes; constraints
        # may ask for more (latency, ...), so only then are the candidates' entries read.
        entries = self.entries([c.id for c in candidates]) if constraints else {}
        now = self.clock()
        scored: list[tuple[float, str]] = []
        failed: list[tuple[int, str, list[str]]] = []
        for fit in candidates:
            reasons = health_problems(fit)
            missing = [c for c in requirement.contracts if c not in fit.contracts]
            if missing:
                reasons.append(f"missing contract: {', '.join(missing)}")
            if constraints:
                entry = entries.get(fit.id)
                if entry is None:
                    continue  # gone from the catalog since the graph read it
                reasons += [
                    f"constraint: {c.description}" for c in constraints if not c.admits(entry)
                ]
            if reasons:
                failed.append((len(reasons), fit.id, reasons))
            else:
                scored.append((-preference_total(fit, prefs, now, fit.fit), fit.id))
        # the closest misses first; only those reported are made into Rejections
        rejected = [
            Rejection(id=artifact_id, reasons=tuple(reasons))
            for _, artifact_id, reasons in heapq.nsmallest(max(MAX_REJECTED, CLOSEST), failed)
        ]
        if not scored:
            considered = {c.id for c in candidates}
            raise self._no_candidate(requirement, wanted_in, wanted_out, rejected, considered)
        top = [artifact_id for _, artifact_id in heapq.nsmallest(1 + RUNNERS_UP, scored)]
        found = entries or self.entries(top)
        fits = {c.id: c for c in candidates}  # scored by the same notes they were ranked by
        ranked = [
            RankedCandidate(
                entry=found[i], score=preference_score(fits[i], prefs, now, fits[i].fit)
            )
            for i in top
            if i in found
        ]
        return Resolution(
            requirement=requirement,
            best=ranked[0].entry,
            score=ranked[0].score,
            runners_up=tuple(ranked[1:]),
            rejected=tuple(rejected[:MAX_REJECTED]),
            considered=len(candidates),
        )

    def _type(self, text: str, field: str) -> str:
        name = self.graph.type_name(text)
        if name is None:
            raise TypeLatticeError(f"{field}: {self.graph.unknown_type_message(text)}")
        return name

    def _no_candidate(
        self,
        req: TypeRequirement,
        wanted_in: str,
        wanted_out: str,
        rejected: list[Rejection],
        candidates: set[str],
    ) -> DependencyError:
        closest = list(rejected[:CLOSEST])
        if len(closest) < CLOSEST:
            closest += self._type_near_misses(
                wanted_in, wanted_out, CLOSEST - len(closest), candidates
            )
        what = f"{wanted_in} -> {wanted_out}"
        if req.contracts:
            what += f" with contracts {', '.join(req.contracts)}"
        if req.constraints:
            what += f" under constraints {'; '.join(req.constraints)}"
        if closest:
            lines = "; ".join(f"{r.id} ({', '.join(r.reasons)})" for r in closest)
            message = f"no artifact satisfies {what}; closest: {lines}"
        else:
            message = (
                f"no artifact satisfies {what}, and none takes {wanted_in} or gives {wanted_out}"
            )
        return DependencyError(message, closest)

    def _type_near_misses(
        self, wanted_in: str, wanted_out: str, count: int, considered: set[str]
    ) -> list[Rejection]:
        """The healthiest artifacts that get one side of the signature right (``considered``:
        the candidates, which get both). Both lists come healthiest first, then by id, so only
        their heads are read."""
        enough = count + len(considered)
        takes = [i for i in self.graph.accepting(wanted_in, enough) if i.id not in considered]
        gives = [i for i in self.graph.producing(wanted_out, enough) if i.id not in considered]
        misses = [
            (
                -i.health,
                i.id,
                f"type mismatch: gives {i.output_type or 'nothing'}, not {wanted_out}",
            )
            for i in takes[:count]
        ] + [
            (-i.health, i.id, f"type mismatch: takes {i.input_type or 'nothing'}, not {wanted_in}")
            for i in gives[:count]
        ]
        misses.sort()
        return [
            Rejection(id=artifact_id, reasons=(reason,))
            for _, artifact_id, reason in misses[:count]
        ]
