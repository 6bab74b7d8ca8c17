"""A query that no brain could answer is an error, not an empty answer.

When every brain a query asked was unavailable or failed (a disk too full to build an index,
a broken model), an empty result list would read as "nothing matches" and a one-shot
``lgent query`` would exit 0 with "No results". ``require_an_answer`` raises instead: a
``DiskFullError`` when a brain failed for want of space, else an ``IndexError_``, naming each
brain and why. A brain that is still being built (``not ready``) is not a failure: a server
answers from the others and says so.
"""

from __future__ import annotations

from lgent.errors import DiskFullError, IndexError_
from lgent.models import QueryResponse

FAILED = ("unavailable", "failed")
FULL = ("the disk is full", "disk is full", "no space left")


def require_an_answer(response: QueryResponse) -> None:
    """Raise when no brain of ``response`` ran and at least one was asked and failed."""
    if any(run.ran for run in response.brains):
        return
    failed = [run for run in response.brains if run.reason.startswith(FAILED)]
    if not failed:
        return
    reasons = "; ".join(f"{run.brain}: {run.reason}" for run in failed)
    if any(marker in run.reason.lower() for run in failed for marker in FULL):
        raise DiskFullError(f"no brain could answer the query, the disk is full ({reasons})")
    raise IndexError_(f"no brain could answer the query ({reasons})")
