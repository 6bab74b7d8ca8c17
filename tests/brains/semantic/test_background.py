"""Background builds: a long build embeds on a low-priority thread of its own, through a copy
of the model loaded there; a rebuild keeps the model the queries use."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from lgent.brains.base import ChangeSet
from lgent.brains.defaults import default_registry
from lgent.brains.registry import BrainContext
from lgent.brains.semantic.background import BackgroundEmbedder
from lgent.brains.semantic.brain import EMBED_CHUNK, SemanticBrain
from lgent.brains.semantic.embedders import Embedder, HashingEmbedder, Vectors
from lgent.config import Settings
from lgent.runtime.priority import BACKGROUND_NICE
from tests.conftest import make_entry


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


class Twinned(HashingEmbedder):
    """Hashing vectors; its background copy records the threads and priorities it ran at."""

    def __init__(self, calls: list[tuple[str, int, int, int]], label: str = "main") -> None:
        super().__init__(32)
        self.record = calls
        self.label = label

    def background_copy(self) -> Embedder:
        return Twinned(self.record, "copy")

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.record.append((self.label, threading.get_native_id(), _priority(), len(texts)))
        return super().embed_batch(texts)


def test_only_an_embedder_with_a_background_copy_runs_in_the_background() -> None:
    assert BackgroundEmbedder.of(HashingEmbedder(32)) is None
    calls: list[tuple[str, int, int, int]] = []
    background = BackgroundEmbedder.of(Twinned(calls))
    assert background is not None and background.name == HashingEmbedder(32).name
    try:
        vectors = background.embed_batch(["a text", "another"])
    finally:
        background.close()
    assert np.array_equal(vectors, HashingEmbedder(32).embed_batch(["a text", "another"]))
    [(label, thread, priority, _)] = calls
    assert label == "copy" and thread != threading.get_native_id()
    if sys.platform == "linux":
        assert priority == min(_priority() + BACKGROUND_NICE, 19)


@pytest.mark.parametrize("background", [True, False])
def test_a_long_build_embeds_in_the_background_only_when_queries_are_served(
    background: bool,
) -> None:
    calls: list[tuple[str, int, int, int]] = []
    brain = SemanticBrain(None, embedder=Twinned(calls), background=background)
    entries = [make_entry(f"Tool{i}", description=f"tool number {i}") for i in range(80)]
    brain.build(entries, [], 1)
    assert brain.status().documents == 80
    labels = {label for label, *_ in calls}
    assert labels == ({"copy"} if background else {"main"})
    assert sum(n for *_, n in calls) == 80
    calls.clear()  # a catch-up of one batch or less runs as a query would: somebody waits
    brain.apply_changes(ChangeSet([make_entry(f"New{i}") for i in range(EMBED_CHUNK)], (), None, 2))
    assert {label for label, *_ in calls} == {"main"}
    assert {thread for _, thread, *_ in calls} == {threading.get_native_id()}


def test_a_rebuild_keeps_the_model_its_queries_use() -> None:
    spec = default_registry().spec("semantic")
    old = spec.factory(BrainContext(index_dir=None, settings=Settings()))
    assert isinstance(old, SemanticBrain)
    fresh = spec.factory(BrainContext(index_dir=None, settings=Settings(), replacing=old))
    assert isinstance(fresh, SemanticBrain) and fresh.embedder is old.embedder
    given = HashingEmbedder(32)
    chosen = spec.factory(
        BrainContext(index_dir=None, settings=Settings(), embedder=given, replacing=old)
    )
    assert isinstance(chosen, SemanticBrain) and chosen.embedder is given


@pytest.mark.real_model
def test_the_onnx_background_copy_gives_the_same_vectors() -> None:
    from lgent.brains.semantic.onnx_embedder import OnnxEmbedder

    model = OnnxEmbedder()
    twin = model.background_copy()
    assert isinstance(twin, OnnxEmbedder) and twin.name == model.name and not twin.loaded
    texts = ["parse PDF invoices", "a tool that cleans up messy text", "x" * 900]
    assert np.allclose(twin.embed_batch(texts), model.embed_batch(texts), atol=1e-5)
    assert model.loaded and twin.loaded and twin._runtime is not model._runtime


@pytest.mark.real_model
@pytest.mark.skipif(sys.platform != "linux", reason="per-thread priorities are Linux's")
def test_the_background_copys_threads_all_run_at_the_lower_priority() -> None:
    """The copy's model is loaded on the background thread, so the thread pool it starts
    inherits that thread's priority: no part of a background build runs at the queries'."""
    from lgent.brains.semantic.onnx_embedder import OnnxEmbedder

    def threads() -> set[int]:
        return {int(t) for t in os.listdir("/proc/self/task")}

    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    before = threads()
    background = BackgroundEmbedder(OnnxEmbedder())
    try:
        background.embed_batch(["parse PDF invoices"] * 40)
        started = threads() - before
        assert started
        assert all(os.getpriority(os.PRIO_PROCESS, t) >= base + BACKGROUND_NICE for t in started)
    finally:
        background.close()
