"""Fusion math checked against hand computations."""

from __future__ import annotations

import pytest

from lgent.fusion.rrf import weighted_rrf, weighted_score_fusion


def test_weighted_rrf_matches_hand_computation() -> None:
    rankings = {
        "keyword": [("a", 9.0), ("b", 5.0)],
        "semantic": [("b", 0.9), ("c", 0.8), ("a", 0.1)],
    }
    fused = weighted_rrf(rankings, {"keyword": 0.8, "semantic": 0.2}, k=60)
    by_id = {f.id: f.score for f in fused}
    assert by_id["a"] == pytest.approx(0.8 / 61 + 0.2 / 63)
    assert by_id["b"] == pytest.approx(0.8 / 62 + 0.2 / 61)
    assert by_id["c"] == pytest.approx(0.2 / 62)
    assert [f.id for f in fused] == ["a", "b", "c"]
    a = fused[0]
    assert [(c.brain, c.rank) for c in a.contributions] == [("keyword", 1), ("semantic", 3)]


def test_equal_weights_reward_agreement() -> None:
    fused = weighted_rrf({"x": [("a", 1), ("b", 1)], "y": [("b", 1), ("c", 1)]}, {"x": 1, "y": 1})
    assert fused[0].id == "b"


def test_zero_weight_brain_only_breaks_ties_never_adds() -> None:
    fused = weighted_rrf({"x": [("a", 1)], "y": [("b", 1)]}, {"x": 1.0, "y": 0.0})
    assert [(f.id, f.score) for f in fused] == [("a", pytest.approx(1 / 61)), ("b", 0.0)]


def test_duplicates_in_one_list_count_once_at_their_best_rank() -> None:
    fused = weighted_rrf({"x": [("a", 1), ("a", 1), ("b", 1)]}, {"x": 1.0})
    assert {f.id: f.score for f in fused} == {
        "a": pytest.approx(1 / 61),
        "b": pytest.approx(1 / 63),
    }


def test_ties_are_deterministic() -> None:
    rankings = {"x": [("b", 1.0)], "y": [("a", 1.0)]}
    assert [f.id for f in weighted_rrf(rankings, {"x": 1, "y": 1})] == ["a", "b"]


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        weighted_rrf({}, {}, k=0)


def test_score_fusion_normalizes_per_brain() -> None:
    rankings = {
        "keyword": [("a", 10.0), ("b", 6.0), ("c", 2.0)],
        "semantic": [("c", 0.9), ("a", 0.5)],
    }
    fused = weighted_score_fusion(rankings, {"keyword": 0.5, "semantic": 0.5})
    by_id = {f.id: f.score for f in fused}
    assert by_id["a"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.0)
    assert by_id["b"] == pytest.approx(0.5 * 0.5)
    assert by_id["c"] == pytest.approx(0.5 * 0.0 + 0.5 * 1.0)
    assert weighted_score_fusion({"x": [("only", 3.0)]}, {"x": 2.0})[0].score == pytest.approx(2.0)
