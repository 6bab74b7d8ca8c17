"""A fourth brain, as a user would add one: this module and its registry entry, nothing else.

It ranks the artifacts whose description ends with the query's last word (a toy rule, but a
real derived index: built from entries and kept current from the catalog's changes)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lgent import BrainContext, BrainQuery, BrainSpec, HitList, QueryType, SkipRule, Voting
from lgent.brains.base import BrainStatus, ChangeSet
from lgent.models import BrainHit, CatalogEntry, TypeDecl


class ToyBrain:
    name = "toy"

    def __init__(self) -> None:
        self.endings: dict[str, str] = {}
        self._change_number = -1

    @property
    def change_number(self) -> int:
        return self._change_number

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self.endings = {}
        self.apply_changes(ChangeSet(list(entries), (), None, change_number))

    def apply_changes(self, changes: ChangeSet) -> None:
        for entry in changes.upserts:
            words = entry.description.lower().rstrip(".").split()
            self.endings[entry.id] = words[-1] if words else ""
        for removed in changes.removals:
            self.endings.pop(removed, None)
        self._change_number = changes.change_number

    def answer(self, query: BrainQuery) -> HitList:
        words = query.text.lower().split()
        wanted = words[-1] if words else ""
        found = sorted(i for i, end in self.endings.items() if end == wanted)[: query.limit]
        return HitList(
            [
                BrainHit(
                    id=i,
                    score=1.0,
                    brain=self.name,
                    rank=rank,
                    explanation={"brain": self.name, "rank": rank, "reason": f"ends with {wanted}"},
                )
                for rank, i in enumerate(found, start=1)
            ]
        )

    def status(self) -> BrainStatus:
        return BrainStatus(
            self.name, self._change_number >= 0, len(self.endings), self._change_number
        )

    def close(self) -> None:
        pass


def _make(context: BrainContext) -> ToyBrain:
    return ToyBrain()


TOY = BrainSpec(
    name="toy",
    summary="artifacts whose description ends with the query's last word",
    factory=_make,
    weights={QueryType.SEMANTIC_INTENT: 0.9, QueryType.EXACT_NAME: 0.1},
    voting=Voting(skip=SkipRule.NEVER),
)
