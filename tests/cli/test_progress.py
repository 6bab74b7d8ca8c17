"""Build progress: the facade reports the semantic build; the CLI draws it or logs each tenth."""

from __future__ import annotations

import io

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.cli.progress import LOG_MIN_TOTAL, StderrBuildProgress
from tests.conftest import make_entry


async def test_the_semantic_build_reports_its_progress() -> None:
    calls: list[tuple[str, int, int]] = []
    async with LGent.open(
        None, embedder=HashingEmbedder(), progress=lambda *call: calls.append(call)
    ) as lg:
        await lg.register_many([make_entry(f"Tool{i}", description=f"tool {i}") for i in range(40)])
        lg.brain("semantic")
    counts = [call for call in calls if call[2] > 0]
    steps = [brain for brain, _, total in calls if total == 0]
    assert counts and {brain for brain, _, _ in counts} == {"semantic"}
    assert counts[-1][1] == counts[-1][2] == 40
    assert [done for _, done, _ in counts] == sorted(done for _, done, _ in counts)
    assert steps == ["semantic: embedding", "semantic: indexing"]  # the steps, in order


def test_off_a_terminal_a_large_build_logs_each_tenth() -> None:
    stream = io.StringIO()
    progress = StderrBuildProgress(stream)
    total = LOG_MIN_TOTAL * 2
    for done in range(0, total + 1, 250):
        progress("semantic", done, total)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0] == f"building the semantic index: 0/{total:,}"
    assert lines[-1] == f"building the semantic index: {total:,}/{total:,}"
    assert len(lines) == 11


def test_off_a_terminal_a_small_build_is_quiet() -> None:
    stream = io.StringIO()
    progress = StderrBuildProgress(stream)
    for done in range(0, 331, 30):
        progress("semantic", done, 330)
    assert stream.getvalue() == ""


def test_a_wait_is_said_when_it_starts_and_every_five_seconds() -> None:
    stream = io.StringIO()
    progress = StderrBuildProgress(stream)
    for second in range(12):
        progress("waiting for another process to finish writing the catalog", second, 0)
    lines = stream.getvalue().splitlines()
    assert lines == [
        "waiting for another process to finish writing the catalog",
        "waiting for another process to finish writing the catalog (5 s)",
        "waiting for another process to finish writing the catalog (10 s)",
    ]
