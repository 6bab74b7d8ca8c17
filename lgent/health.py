"""One health rule: what an artifact's status and recorded success rate say about using it.

Every surface says health with these words (the resolver's reasons, the flags of a result, the
verdict the CLI, HTTP, MCP and the web page show), and the graph ranks paths by ``score``:

- *usable*: active or experimental; deprecated and retired artifacts are steps of a pipeline
  only when a caller asks for them.
- *healthy*: active, and no recorded success rate at or below ``LOW_SUCCESS``. An artifact
  with no recorded rate (everything imported from MCP servers, OpenAPI specs and agent cards)
  is healthy, and says that its success is not measured.
- *score*: the recorded success rate, else ``UNMEASURED_SCORE``: below proven artifacts, above
  failing ones (composition paths rank by their weakest step's score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from lgent.models import Status

LOW_SUCCESS = 0.5
"""A recorded success rate at or below this is low: the artifact is not healthy."""
UNMEASURED_SCORE = 0.7
"""The score of an artifact with no recorded success rate."""
USABLE = frozenset({Status.ACTIVE, Status.EXPERIMENTAL})
"""The statuses of artifacts that may be a step of a pipeline."""
NOT_MEASURED = "success not measured"
UNUSABLE_FACTOR = 0.3
"""Scales an unusable artifact's weight in a graph answer: it stays, below the usable ones."""


def answer_weight(score: float, usable: bool = True) -> float:
    """How much an artifact's health counts in a graph answer's score: ``0.5 + 0.5 * score``
    (a healthy artifact up to twice an unhealthy one), times ``UNUSABLE_FACTOR`` if unusable."""
    return (1.0 if usable else UNUSABLE_FACTOR) * (0.5 + 0.5 * score)


class HealthFacts(Protocol):
    """What the rule reads: a catalog entry, or the graph's note of one."""

    @property
    def status(self) -> Status: ...

    @property
    def success_rate(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class Health:
    """The health of one artifact."""

    status: Status
    success_rate: float | None

    @classmethod
    def of(cls, facts: HealthFacts) -> Health:
        return cls(facts.status, facts.success_rate)

    @property
    def measured(self) -> bool:
        return self.success_rate is not None

    @property
    def usable(self) -> bool:
        return self.status in USABLE

    @property
    def low_success(self) -> bool:
        return self.success_rate is not None and self.success_rate <= LOW_SUCCESS

    @property
    def healthy(self) -> bool:
        return self.status == Status.ACTIVE and not self.low_success

    @property
    def score(self) -> float:
        return UNMEASURED_SCORE if self.success_rate is None else self.success_rate

    def problems(self) -> list[str]:
        """Why the artifact is not healthy (empty when it is), as the resolver reports it."""
        found = []
        if self.status != Status.ACTIVE:
            found.append(f"unhealthy: status is {self.status.value}")
        if self.low_success:
            found.append(f"unhealthy: success rate {self.success_rate:g} <= {LOW_SUCCESS}")
        return found

    def flags(self, successors: Sequence[str] = ()) -> tuple[str, ...]:
        """Short warnings for a result (none when healthy): a status other than active (naming
        what succeeds a deprecated or retired artifact), a low success rate. An unmeasured rate
        is no warning: nearly every imported result would carry it."""
        flags: list[str] = []
        if self.status != Status.ACTIVE:
            flag = self.status.value
            if successors and self.status in (Status.DEPRECATED, Status.RETIRED):
                flag += f", use {' or '.join(successors)}"
            flags.append(flag)
        if self.low_success:
            flags.append(f"low success rate {self.success_rate:.0%}")
        return tuple(flags)

    def verdict(self, successors: Sequence[str] = ()) -> str:
        """One line every surface shows: ``healthy``, ``healthy (success not measured)``,
        ``unhealthy: deprecated, use X``, ``unhealthy: low success rate 40%``..."""
        flags = self.flags(successors)
        if not flags:
            return "healthy" if self.measured else f"healthy ({NOT_MEASURED})"
        said = "; ".join(flags)
        return f"unhealthy: {said}" if self.measured else f"unhealthy: {said} ({NOT_MEASURED})"

    def success_note(self) -> str:
        """The success rate as a score breakdown names it (``0.90``, ``not measured``)."""
        return NOT_MEASURED if self.success_rate is None else f"{self.success_rate:.2f}"
