"""The resolver and hole filling over a small in-memory graph brain and a dict of entries (no
store, no index, no model): ranking, health, contracts, errors and holes, by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from lgent import DependencyError, TypeLatticeError, TypeRequirement
from lgent.graph.model import CatalogGraph
from lgent.models import CatalogEntry, ResolutionPreferences, TypeDecl
from lgent.resolver.holes import fill_holes
from lgent.resolver.resolver import DependencyResolver
from tests.conftest import entry_lookup, make_entry

NOW = datetime(2026, 11, 1, tzinfo=UTC)
TYPES = [
    TypeDecl.parse({"type": "Doc"}),
    TypeDecl.parse({"type": "Pdf", "subtype_of": ["Doc"]}),
    TypeDecl.parse({"type": "Text"}),
    TypeDecl.parse({"type": "Score"}),
]
ENTRIES = [
    make_entry(
        "steady",
        input_type="Doc",
        output_type="Text",
        success_rate=0.9,
        usage_count=100,
        last_used=(NOW - timedelta(days=90)).isoformat(),
        version="1.0.0",
        contracts=["deterministic"],
    ),
    make_entry(
        "popular",
        input_type="Doc",
        output_type="Text",
        success_rate=0.6,
        usage_count=100,
        last_used=NOW.isoformat(),
        version="2.0.0",
    ),
    make_entry("flaky", input_type="Pdf", output_type="Text", success_rate=0.4),
    make_entry("retired", input_type="Doc", output_type="Text", status="retired", success_rate=1),
    make_entry("scorer", input_type="Text", output_type="Score", success_rate=0.8),
]


def resolver(entries: list[CatalogEntry] = ENTRIES) -> DependencyResolver:
    graph = CatalogGraph()
    graph.build(entries, TYPES, 1)
    return DependencyResolver(graph, entry_lookup(entries), clock=lambda: NOW)


def test_the_best_healthy_candidate_by_preference_computed_by_hand() -> None:
    found = resolver().resolve(TypeRequirement(input_type="Pdf", output_type="Text"))
    # steady: 0.4*0.9 + 0.2*0.5 (one half-life old) + 0.2*1.0 + 0.2*(1 - 0.5**1) = 0.76
    # popular: 0.4*0.6 + 0.2*1.0 + 0.2*1.0 + 0.2*(1 - 0.5**2) = 0.79
    assert found.best.id == "popular"
    assert found.score.total == pytest.approx(0.79, abs=1e-3)
    assert [c.entry.id for c in found.runners_up] == ["steady"]
    assert found.runners_up[0].score.total == pytest.approx(0.76, abs=1e-3)
    rejected = {r.id: r.reasons for r in found.rejected}
    assert any("success rate 0.4" in r for r in rejected["flaky"])
    assert any("retired" in r for r in rejected["retired"])


def test_contracts_and_preferences_change_the_winner() -> None:
    strict = TypeRequirement(input_type="Doc", output_type="Text", contracts=("deterministic",))
    assert resolver().resolve(strict).best.id == "steady"
    only_success = ResolutionPreferences(
        success_weight=1, recency_weight=0, usage_weight=0, version_weight=0
    )
    loose = TypeRequirement(input_type="Doc", output_type="Text")
    assert resolver().resolve(loose, only_success).best.id == "steady"


def test_no_healthy_fit_names_the_closest_misses() -> None:
    with pytest.raises(DependencyError) as info:
        resolver(ENTRIES[2:4]).resolve(TypeRequirement(input_type="Pdf", output_type="Text"))
    assert {c.id for c in info.value.candidates} >= {"flaky", "retired"}


def test_an_unknown_type_suggests_a_close_one() -> None:
    with pytest.raises(TypeLatticeError, match="Text"):
        resolver().resolve(TypeRequirement(input_type="Doc", output_type="Txet"))


def test_a_hole_is_filled_by_one_artifact_or_a_path() -> None:
    single = fill_holes(resolver(), ["Doc", "???", "Text"])
    assert single.steps[1].filled_with == ("popular",)
    chained = fill_holes(resolver(), ["Pdf", "???", "Score"])
    # paths rank by their weakest link: steady (0.9) >> scorer (0.8) beats popular (0.6)
    assert chained.steps[1].filled_with == ("steady", "scorer")
    assert chained.steps[1].types == ("Pdf", "Text", "Score")
    # a chain's reason is short: the failed single search's candidates are moot once it fits
    assert chained.steps[1].reason == (
        "no single healthy artifact takes Pdf and gives Score; composed steady >> scorer "
        "through Pdf -> Text -> Score"
    )
    merged = fill_holes(resolver(), ["Doc", "???", "???", "Text"])
    assert merged.steps[1].filled_with == ("popular",)
    assert merged.steps[1].reason.endswith("; the 2 adjacent holes are filled as one")
