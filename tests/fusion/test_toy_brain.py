"""Acceptance: a fourth brain (tests/fusion/toy_brain.py: its module and its registry entry,
nothing else) is asked by ``query()``, weighted, fused and explained."""

from __future__ import annotations

from lgent import LGent, default_registry
from lgent.brains.semantic.embedders import HashingEmbedder
from tests.conftest import make_entry
from tests.fusion.toy_brain import TOY


async def test_a_registered_fourth_brain_is_asked_weighted_fused_and_explained() -> None:
    registry = default_registry().with_brain(TOY)
    async with LGent.open(None, embedder=HashingEmbedder(), brains=registry) as lg:
        await lg.register_many(
            [
                make_entry("Scrubber", description="Removes noise from text"),
                make_entry("Polisher", description="Makes prose read better, sentence by sentence"),
                make_entry("Unrelated", description="Schedules meetings in a calendar"),
            ]
        )
        response = await lg.query("something for sentence", limit=5)
        reindexed = await lg.reindex(["toy"])
        direct = await lg.search("one sentence", brain="toy")
        health = lg.brain("toy").status()
    toy = next(b for b in response.brains if b.brain == "toy")
    assert toy.ran and toy.weight == 0.9 and toy.hits == 1
    top = response.results[0]
    assert top.id == "Polisher"
    assert "toy" in {s.brain for s in top.sources}
    child = next(c for c in top.explanation["children"] if c["brain"] == "toy")
    assert child["reason"] == "ends with sentence" and child["contribution"] > 0
    assert "toy (weight 0.9" in response.query_interpretation
    assert [r.brain for r in reindexed] == ["toy"] and reindexed[0].action == "rebuilt"
    assert [h.id for h in direct.hits] == ["Polisher"] and health.ready
