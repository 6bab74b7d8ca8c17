"""SIGKILL a loader or an index build at random moments, reopen, and compare with a fresh build.

CI runs a handful of trials; `python -m benchmarks.reliability` runs the full count and writes
docs/reliability.md."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.harness.stress import OPERATIONS, run_crash_trial
from lgent.brains.semantic.embedders import Embedder

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

TRIALS = [(operation, random.Random(n).uniform(0.3, 3.0)) for n, operation in enumerate(OPERATIONS)]


@pytest.mark.parametrize(("operation", "delay"), TRIALS)
def test_crash_trial(
    example_home: Path, real_embedder: Embedder, tmp_path: Path, operation: str, delay: float
) -> None:
    trial = run_crash_trial(
        example_home, tmp_path / "trial", operation, delay, embedder=real_embedder
    )
    assert trial.batch_state in ("none", "all"), trial
    assert trial.doctor_failures == [], trial
    assert trial.results_equal, trial.mismatches
