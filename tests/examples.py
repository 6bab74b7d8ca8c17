"""How many examples each property test generates.

By default every property test runs its full count (``@settings(max_examples=examples(10_000))``
is 10,000 examples): that is what ``python -m pytest`` and CI run. ``LGENT_TEST_EXAMPLES=0.1``
scales every count by that fraction (at least 10 examples each, and the 100 Hypothesis gives a
test that names no count becomes 10 too): the quick model-free run in the README uses it. It
changes how many strings are generated, never what a test checks.
"""

from __future__ import annotations

import os

from hypothesis import settings


def _fraction() -> float:
    given = os.environ.get("LGENT_TEST_EXAMPLES", "1")
    try:
        fraction = float(given)
    except ValueError:
        fraction = -1.0
    if not 0 < fraction <= 1:
        raise ValueError(f"LGENT_TEST_EXAMPLES must be a fraction in (0, 1], got {given!r}")
    return fraction


FRACTION = _fraction()
MINIMUM = 10


def examples(full: int) -> int:
    """A property test's example count: ``full``, or its share under ``LGENT_TEST_EXAMPLES``."""
    return full if FRACTION == 1 else max(MINIMUM, round(full * FRACTION))


if FRACTION != 1:  # tests that name no count (Hypothesis' default, 100) are scaled too
    default = settings.get_profile("default").max_examples
    settings.register_profile("lgent-scaled", max_examples=examples(default))
    settings.load_profile("lgent-scaled")
