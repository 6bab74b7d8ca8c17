"""The cores a process may use: its affinity on Linux, every core elsewhere."""

from __future__ import annotations

import os

import pytest

from lgent.runtime.cores import usable_cores


def test_usable_cores_are_the_affinity_where_there_is_one() -> None:
    cores = usable_cores()
    assert 1 <= cores <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        assert cores == len(os.sched_getaffinity(0))


def test_without_an_affinity_every_core_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert usable_cores() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert usable_cores() == 1
