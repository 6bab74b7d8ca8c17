"""How fusion reaches the brains of one query: each by name, when the plan first needs it.

Fusion opens nothing itself. The facade hands it a view of the home's brain pool
(``lgent/runtime/brain_pool.py``: opened lazily, caught up per the home's freshness, pinned for the
query); tests hand it brains already made (``FixedBrains``). A brain that cannot be had says why
with an ``LGentError``, and fusion reports it as unavailable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from lgent.brains.base import Brain, GrammarFilter, QuestionReader
from lgent.errors import LGentError

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext


class BrainAccess(Protocol):
    """The brains one query may ask, by name."""

    async def acquire(self, name: str) -> Brain:
        """The brain, ready for this query (LGentError when it cannot be had). Any waiting
        (opening, catching up, a catch-up applying) is awaited, never done on a worker
        thread, so queries waiting for a brain cannot starve the threads others need."""
        ...

    def question_reader(self) -> str | None:
        """The name of the brain that reads type and relationship questions, if any."""
        ...

    def failed(self, name: str, err: LGentError) -> None:
        """A brain's answer failed with ``err`` (a damaged index is rebuilt)."""
        ...

    def reflects(self, name: str) -> int | None:
        """The catalog change number of the state this query read of ``name`` (None: unread)."""
        ...

    def progress(self, name: str) -> str:
        """What the brain's indexer is doing now ("" when it is idle)."""
        ...

    def notes(self) -> list[str]:
        """Problems found with persisted indexes since the last response, said once."""
        ...


class Unavailable(LGentError):
    """A brain could not be had for a query; ``reason`` says why (as the response shows it)."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name}: {reason}")


class FixedBrains:
    """Brains already open, as a ``BrainAccess`` (``unavailable``: names with the reason)."""

    def __init__(
        self, brains: Mapping[str, Brain], unavailable: Mapping[str, str] | None = None
    ) -> None:
        self.brains = dict(brains)
        self.unavailable = dict(unavailable or {})

    async def acquire(self, name: str) -> Brain:
        if name in self.unavailable:
            raise Unavailable(name, f"unavailable: {self.unavailable[name]}")
        if name not in self.brains:
            raise Unavailable(name, "unavailable: not opened")
        return self.brains[name]

    def question_reader(self) -> str | None:
        return next((n for n, b in self.brains.items() if isinstance(b, QuestionReader)), None)

    def failed(self, name: str, err: LGentError) -> None:
        """Nothing to repair: these brains belong to the caller."""

    def reflects(self, name: str) -> int | None:
        brain = self.brains.get(name)
        return None if brain is None else brain.change_number

    def progress(self, name: str) -> str:
        return ""

    def notes(self) -> list[str]:
        return []


async def grammar_filter(context: FusionContext) -> GrammarFilter | None:
    """The first brain that honours the grammar and can filter by it, if one can be had."""
    for spec in context.registry:
        if not spec.can(GrammarFilter):
            continue
        try:
            brain = await context.access.acquire(spec.name)
        except LGentError:
            continue
        if isinstance(brain, GrammarFilter):
            return brain
    return None
