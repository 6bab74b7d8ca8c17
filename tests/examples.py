"""How many examples each property test generates.

By default every property test runs its full count (``@settings(max_examples=examples(10_000))``
is 10,000 examples): that is what ``python -m pytest`` and CI run. ``LGENT_TEST_EXAMPLES=0.1``
scales every count by that fraction (at least 10 examples each, and the 100 Hypothesis gives a
test that names no count becomes 10 too). The quick model-free run (``-m "not real_model"``)
makes a tenth unless ``LGENT_TEST_EXAMPLES`` says otherwise (tests/conftest.py calls ``scale``
before any test module is collected). It changes how many strings are generated, never what a
test checks.
"""

from __future__ import annotations

import os

from hypothesis import settings

QUICK_FRACTION = 0.1
"""The share of examples of the quick model-free run, unless ``LGENT_TEST_EXAMPLES`` is set."""


def _fraction(default: float) -> float:
    given = os.environ.get("LGENT_TEST_EXAMPLES", str(default))
    try:
        fraction = float(given)
    except ValueError:
        fraction = -1.0
    if not 0 < fraction <= 1:
        raise ValueError(f"LGENT_TEST_EXAMPLES must be a fraction in (0, 1], got {given!r}")
    return fraction


MINIMUM = 10
_scale = {"fraction": 1.0}


def scale(quick: bool) -> float:
    """Set the share of examples for this run: ``LGENT_TEST_EXAMPLES``, else a tenth in the quick
    run and the full counts otherwise. Returns the share."""
    fraction = _fraction(QUICK_FRACTION if quick else 1.0)
    _scale["fraction"] = fraction
    if fraction != 1:  # tests that name no count (Hypothesis' default, 100) are scaled too
        default = settings.get_profile("default").max_examples
        settings.register_profile("lgent-scaled", max_examples=examples(default))
        settings.load_profile("lgent-scaled")
    return fraction


def fraction() -> float:
    """The share of examples this run makes (1 for the full counts)."""
    return _scale["fraction"]


def examples(full: int) -> int:
    """A property test's example count: ``full``, or this run's share of it."""
    share = fraction()
    return full if share == 1 else max(MINIMUM, round(full * share))
