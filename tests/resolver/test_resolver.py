"""The resolver and hole filling on the example catalog, and its error paths."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from lgent import (
    DependencyError,
    QueryError,
    ResolutionPreferences,
    TypeLatticeError,
    TypeRequirement,
)
from lgent.resolver.ranking import preference_score, recency_score, usage_score, version_score
from tests.conftest import OpenHome, make_entry


async def test_resolve_pdf_to_sentiment_deterministic(open_example: OpenHome) -> None:
    async with open_example() as lg:
        resolution = await lg.resolve(
            TypeRequirement(
                input_type="PDF", output_type="SentimentScore", contracts=("deterministic",)
            )
        )
    best = resolution.best
    assert best.id == "FinancialPDFAnalyzer"
    assert best.status.value == "active" and (best.success_rate or 0) > 0.5
    assert "deterministic" in best.contracts
    s = resolution.score
    expected = 0.4 * s.success + 0.2 * s.recency + 0.2 * s.usage + 0.2 * s.version
    assert s.total == pytest.approx(expected, abs=1e-5)
    rejected = {r.id: r.reasons for r in resolution.rejected}
    assert any("success rate 0.45" in reason for reason in rejected["PDFSentimentQuick"])


async def test_subtyping_is_respected(open_example: OpenHome) -> None:
    async with open_example() as lg:
        # a FinancialPDF is a PDF, so PDF-accepting artifacts qualify
        resolution = await lg.resolve(
            TypeRequirement(input_type="FinancialPDF", output_type="SentimentScore")
        )
    assert resolution.best.input_type in {"PDF", "FinancialPDF", "Document"}


async def test_preferences_change_the_winner(open_example: OpenHome) -> None:
    async with open_example() as lg:
        by_usage = await lg.resolve(
            TypeRequirement(input_type="Text", output_type="SentimentScore"),
            ResolutionPreferences(
                success_weight=0, recency_weight=0, usage_weight=1, version_weight=0
            ),
        )
        by_success = await lg.resolve(
            TypeRequirement(input_type="Text", output_type="SentimentScore"),
            ResolutionPreferences(
                success_weight=1, recency_weight=0, usage_weight=0, version_weight=0
            ),
        )
    everyone = [by_success.best, *(c.entry for c in by_success.runners_up)]
    assert by_success.best.success_rate == max(e.success_rate or 0 for e in everyone)
    assert by_usage.score.usage >= max(c.score.usage for c in by_usage.runners_up)


@pytest.mark.parametrize(
    ("requirement", "error", "fragments"),
    [
        (
            TypeRequirement(input_type="PDFF", output_type="Text"),
            TypeLatticeError,
            ["input_type: unknown type 'PDFF'", "did you mean PDF"],
        ),
        (
            TypeRequirement(input_type="PDF", output_type="Image"),
            DependencyError,
            ["no artifact satisfies PDF -> Image", "type mismatch"],
        ),
        (
            TypeRequirement(
                input_type="PDF", output_type="SentimentScore", contracts=("requires_gpu",)
            ),
            DependencyError,
            ["missing contract: requires_gpu", "FinancialPDFAnalyzer"],
        ),
        (
            TypeRequirement(
                input_type="PDF", output_type="SentimentScore", constraints=("latency < 10ms",)
            ),
            DependencyError,
            ["constraint: latency < 10ms"],
        ),
    ],
)
async def test_resolution_errors(
    open_example: OpenHome,
    requirement: TypeRequirement,
    error: type[Exception],
    fragments: list[str],
) -> None:
    async with open_example() as lg:
        with pytest.raises(error) as info:
            await lg.resolve(requirement)
    for fragment in fragments:
        assert fragment in str(info.value)
    if isinstance(info.value, DependencyError):
        assert info.value.candidates


async def test_fill_holes(open_example: OpenHome) -> None:
    async with open_example() as lg:
        single = await lg.fill_holes(["DataSource", "???", "Database"])
        chained = await lg.fill_holes(["RawHTML", "???", "Summary"])
        from_artifact = await lg.fill_holes(["NewsParser", "???", "Summary"])
    assert single.steps[1].filled_with == ("IngestionLoader",)
    assert len(chained.steps[1].filled_with) == 2
    assert chained.steps[1].types[0] == "RawHTML" and chained.steps[1].types[-1] == "Summary"
    assert from_artifact.steps[1].filled_with


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        (["???", "Database"], "cannot start or end with '???'"),
        (["Nowhere", "???", "Database"], "neither a known type nor an artifact"),
        (["PDF", "???", "Databse", "???", "Summary"], "step 2 ('Databse') is neither"),
        (["PDF", "Summary"], "has no '???' hole to fill"),
        ([], "a pipeline needs 1 to 50 steps"),
        (["PDF", "", "Summary"], "pipeline step 1 is empty"),
        (["", ""], "pipeline step 0, 1 is empty"),
        (["Image", "???", "SQLQuery"], "cannot fill Image -> ??? -> SQLQuery"),
    ],
)
async def test_fill_holes_errors(open_example: OpenHome, pipeline: list[str], message: str) -> None:
    async with open_example() as lg:
        with pytest.raises((QueryError, DependencyError)) as info:
            await lg.fill_holes(pipeline)
    assert message in str(info.value)


def test_preference_math_by_hand() -> None:
    now = datetime(2026, 11, 1, tzinfo=UTC)
    assert recency_score(datetime(2026, 8, 3, tzinfo=UTC), now, 90) == pytest.approx(0.5)
    assert recency_score(None, now, 90) == 0
    assert usage_score(50, 100) == 0.5 and usage_score(5000, 100) == 1.0
    assert version_score("1.0.0") == pytest.approx(0.5)
    assert version_score("3.0.0") == pytest.approx(0.875)
    assert version_score("1.0.0-rc.1") == pytest.approx(0.25)
    entry = make_entry(
        "X", success_rate=0.8, usage_count=50, version="1.0.0", last_used="2026-08-03T00:00:00Z"
    )
    score = preference_score(entry, ResolutionPreferences(), now)
    assert score.total == pytest.approx(0.4 * 0.8 + 0.2 * 0.5 + 0.2 * 0.5 + 0.2 * 0.5)


async def test_resolution_agrees_with_a_brute_force_ranking(open_example: OpenHome) -> None:
    """Every signature the example catalog declares, resolved, against a ranking of the whole
    catalog by hand: the subtype rule, the health rule and the preference order."""
    from lgent.resolver.resolver import DependencyResolver

    now = datetime(2026, 6, 1, tzinfo=UTC)
    prefs = ResolutionPreferences()
    async with open_example() as lg:
        graph = lg.catalog_graph()
        resolver = DependencyResolver(graph, lg.store.get_many, clock=lambda: now)
        entries = [e for e in lg.store.list_entries() if e.input_type and e.output_type]
        signatures = sorted({(e.input_type or "", e.output_type or "") for e in entries})
        checked = 0
        for wanted_in, wanted_out in signatures:
            fitting = [
                e
                for e in entries
                if graph.is_subtype(wanted_in, e.input_type or "")
                and graph.is_subtype(e.output_type or "", wanted_out)
            ]
            healthy = [
                e
                for e in fitting
                if e.status.value == "active" and (e.success_rate is None or e.success_rate > 0.5)
            ]
            expected = sorted(
                healthy, key=lambda e: (-preference_score(e, prefs, now).total, e.id)
            )[:5]
            requirement = TypeRequirement(input_type=wanted_in, output_type=wanted_out)
            if not expected:
                with pytest.raises(DependencyError):
                    resolver.resolve(requirement)
                continue
            found = resolver.resolve(requirement, prefs)
            assert [found.best.id, *(r.entry.id for r in found.runners_up)] == [
                e.id for e in expected
            ], (wanted_in, wanted_out)
            assert found.considered == len(fitting)
            assert all(r.id not in {e.id for e in healthy} for r in found.rejected)
            checked += 1
    assert checked >= 30
