"""The external-quality benchmark's parts: metrics, sampling, tool -> entry, baselines' fusion.

Hand-computed figures on tiny inputs; the development sets themselves are only read by the
tests at the end, which skip when ``../shared/quality`` is absent.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import numpy as np
import pytest

from benchmarks import baselines, devsets, ir_metrics
from benchmarks.external_quality import (
    CachedEmbedder,
    cached_embedder,
    lgent_rankings,
    parse_sizes,
)
from benchmarks.harness.runner import replace_section
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.brains.semantic.pooling import PoolsPieces, clause_pools, content_pools
from lgent.ids import is_valid_id
from tests.brains.semantic.test_pooling import WordPieces

# -- metrics --------------------------------------------------------------------------------------


def test_ndcg_recall_and_completeness_by_hand() -> None:
    ranked = ["a", "x", "b", "y"]
    relevant = {"a", "b"}
    got = ir_metrics.scores(ranked, relevant)
    dcg = 1 + 1 / math.log2(4)  # a at rank 1, b at rank 3
    idcg = 1 + 1 / math.log2(3)
    assert got["ndcg@10"] == pytest.approx(dcg / idcg)
    assert got["recall@5"] == 1.0
    assert got["c@10"] == 1.0
    assert got["mrr@10"] == 1.0


def test_recall_at_5_and_completeness_need_the_whole_set() -> None:
    ranked = ["x1", "x2", "x3", "x4", "x5", "b", "x6", "x7", "x8", "x9", "c"]
    relevant = {"a", "b", "c"}
    got = ir_metrics.scores(ranked, relevant)
    assert got["recall@5"] == 0.0
    assert got["recall@10"] == pytest.approx(1 / 3)  # c is 11th
    assert got["recall@100"] == pytest.approx(2 / 3)
    assert got["c@10"] == 0.0
    assert got["mrr@10"] == pytest.approx(1 / 6)
    assert got["ndcg@10"] == pytest.approx((1 / math.log2(7)) / (1 + 1 / math.log2(3) + 0.5))


def test_mean_scores_are_percentages_and_check_lengths() -> None:
    means = ir_metrics.mean_scores([["a"], ["x"]], [{"a"}, {"b"}])
    assert means["ndcg@10"] == pytest.approx(50.0)
    assert means["c@10"] == pytest.approx(50.0)
    with pytest.raises(ValueError, match="2 rankings for 1"):
        ir_metrics.mean_scores([["a"], ["b"]], [{"a"}])


def test_rrf_sums_reciprocal_ranks_within_depth() -> None:
    fused = baselines.rrf([["a", "b", "c"], ["c", "a"]], k=60, depth=2)
    # a: 1/61 + 1/62; c: 1/61 (third in the first list is past depth 2); b: 1/62
    assert fused == ["a", "c", "b"]


def test_cosine_rankings_order_by_similarity() -> None:
    docs = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    query = np.array([[0.0, 1.0]], dtype=np.float32)
    assert baselines.cosine_rankings(["a", "b", "c"], docs, query, depth=2) == [["b", "c"]]


def test_bm25_ranks_the_matching_tool_first() -> None:
    ranked = baselines.bm25_rankings(
        ["w", "n"], ["weather forecast for a city", "latest news headlines"], ["city weather"]
    )
    assert ranked[0][0] == "w"


# -- sampling and set layout ----------------------------------------------------------------------


def test_sample_is_seeded_and_in_file_order_semantics() -> None:
    items = list(range(100))
    assert devsets.sample(items, 10, seed=0) == devsets.sample(items, 10, seed=0)
    assert devsets.sample(items, 10, seed=0) != devsets.sample(items, 10, seed=1)
    assert devsets.sample(items, None) == items
    assert devsets.sample(items, 500) == items


def test_qid_digest_sorts_and_joins_lines() -> None:
    import hashlib

    assert devsets.qid_digest(["b", "a"]) == hashlib.sha1(b"a\nb").hexdigest()


def test_parse_sizes() -> None:
    assert parse_sizes("metatool-single=5,toollens-train=all") == {
        "metatool-single": 5,
        "toollens-train": None,
    }
    with pytest.raises(SystemExit, match="SET=N"):
        parse_sizes("nosuchset=5")
    with pytest.raises(SystemExit, match="positive integer"):
        parse_sizes("metatool-single=0")


# -- tools as entries -----------------------------------------------------------------------------

TOOL: dict[str, Any] = {
    "id": "api_7",
    "name": "Recipe Finder: Search",
    "description": "Find recipes.",
    "category": "Food",
    "inputs": [
        {
            "name": "ingredient",
            "type": "STRING",
            "description": "What to cook with",
            "required": True,
        },
        {"name": "limit", "type": "NUMBER", "description": "", "required": False},
    ],
    "outputs": [{"name": "title", "type": "str"}, {"name": "Food", "type": "str"}],
}


def test_tool_entry_keeps_structured_fields_as_keywords() -> None:
    entry = devsets.tool_entry(TOOL)
    assert entry.id == "api_7"
    assert entry.name == "Recipe Finder: Search"
    assert entry.description == "Find recipes."
    assert entry.keywords == ("Food", "ingredient", "limit", "title")  # deduplicated, in order
    assert entry.input_type is None and entry.output_type is None


def test_rich_entry_text_adds_parameters_and_outputs() -> None:
    entry = devsets.tool_entry(TOOL, "rich")
    # the paragraphs the importers write for MCP, OpenAPI and OpenAI tools
    assert entry.description.split("\n\n") == [
        "Find recipes.",
        "Parameters: ingredient (string): What to cook with; limit (number).",
        "Returns: title (str); Food (str).",
    ]


def test_rich_entry_text_takes_the_whole_return_schema_from_the_doc() -> None:
    """ToolLens's ``outputs`` keep top-level fields only; its ``doc`` ends with the whole
    return schema, whose nested fields say what the tool gives back."""
    schema = {"success": "bool", "results": {"ingredients": ["list of str"], "count": "int"}}
    tool = {**TOOL, "doc": f"api_name:Search, return_schema: {json.dumps(schema)}"}
    assert devsets.return_properties(tool)["results"] == {
        "type": "object",
        "properties": {
            "ingredients": {"type": "array", "items": {"type": "list"}},
            "count": {"type": "int"},
        },
    }
    returns = devsets.tool_entry(tool, "rich").description.split("\n\n")[-1]
    assert returns == "Returns: success (bool); results (object with ingredients, count)."
    broken = {**TOOL, "doc": "return_schema: {not json"}
    assert devsets.return_properties(broken) == {}
    assert devsets.tool_entry(broken, "rich").description.endswith(
        "Returns: title (str); Food (str)."
    )


def test_tool_without_structure_and_with_an_odd_id() -> None:
    entry = devsets.tool_entry({"id": "PDF&URLTool", "name": "PDF&URLTool", "description": "x"})
    assert is_valid_id(entry.id) and entry.id == "PDF-URLTool"
    assert entry.name == "PDF&URLTool"
    assert entry.keywords == ()


def test_baseline_text_layouts() -> None:
    assert devsets.baseline_text(TOOL, "name_description") == "Recipe Finder: Search. Find recipes."
    assert devsets.baseline_text(TOOL, "flattened") == (
        "Recipe Finder: Search. Find recipes.. Category: Food. "
        "Inputs: ingredient (STRING): What to cook with; limit (NUMBER). "
        "Outputs: title (str); Food (str)"
    )


# -- running L-gent on a set ----------------------------------------------------------------------


def test_cached_embedder_embeds_each_text_once() -> None:
    inner = HashingEmbedder(32)
    cached = CachedEmbedder(inner)
    cached.prime(["a b", "c d"])
    first = cached.embed_batch(["c d", "a b", "c d"])
    assert inner.calls == 1
    assert np.allclose(first[1], inner.embed_batch(["a b"])[0])
    assert cached.name == inner.name and cached.embed_batch([]).shape == (0, 32)


def test_cached_embedder_pools_only_what_its_embedder_pools() -> None:
    assert not isinstance(cached_embedder(HashingEmbedder(32)), PoolsPieces)
    inner = WordPieces(32)
    cached = cached_embedder(inner)
    assert isinstance(cached, PoolsPieces) and cached.name == inner.name
    first = cached.embed_pooled(["convert the dollars", "weather"], content_pools)
    again = cached.embed_pooled(["weather", "convert the dollars"], clause_pools)
    cached.embed_pooled(["weather"], content_pools)
    assert inner.pooled == ["convert the dollars", "weather", "weather", "convert the dollars"]
    assert np.allclose(first[0], inner.embed_pooled(["convert the dollars"], content_pools)[0])
    assert again[0].shape == (1, 32)


def test_lgent_rankings_map_ids_back_and_count_what_fusion_did() -> None:
    tools = (
        {"id": "W&1", "name": "weather", "description": "weather forecast for any city"},
        {"id": "n2", "name": "news", "description": "latest news headlines"},
    )
    spec = devsets.SETS["metatool-single"]
    queries = (
        devsets.Query("q1", "weather forecast", frozenset({"W&1"})),
        devsets.Query("q2", 'my word is "kalem"', frozenset({"n2"})),
    )
    devset = devsets.DevSet(spec, tools, queries, devsets.qid_digest(["q1", "q2"]), 2)
    run = asyncio.run(lgent_rankings(devset, CachedEmbedder(HashingEmbedder(64))))
    assert run.rankings["fused"][0][0] == "W&1"  # the set's own id, not the entry's
    assert run.rankings["semantic"][0][0] == "W&1"
    assert sum(run.classes.values()) == 2
    assert len(run.rankings["keyword"]) == len(run.rankings["graph"]) == 2


# -- the documents --------------------------------------------------------------------------------


def test_replace_section_can_keep_the_documents_own_preamble() -> None:
    doc = "# Quality\n\nintro\n\n## A\n\nold\n"
    out = replace_section(doc, "B", "## B\n\nnew", header=None)
    assert out == "# Quality\n\nintro\n\n## A\n\nold\n\n## B\n\nnew\n"
    assert "intro" not in replace_section(doc, "A", "## A\n\nx")  # the default header replaces it


# -- the real sets (skipped without ../shared) ----------------------------------------------------

needs_data = pytest.mark.skipif(
    not devsets.available(), reason="the development sets (../shared/quality) are absent"
)


@needs_data
@pytest.mark.parametrize("name", ["metatool-single", "toollens-train"])
def test_readme_samples_are_reproduced(name: str) -> None:
    devset = devsets.load_set(name)
    assert len(devset.queries) == devset.spec.sample
    assert devset.digest_matches is True


@needs_data
def test_every_tool_of_every_set_becomes_a_valid_entry() -> None:
    for name in ("metatool-multi", "toollens-train"):
        devset = devsets.load_set(name, size=1)
        entries = [devsets.tool_entry(t, "rich") for t in devset.tools]
        assert len({e.id for e in entries}) == len(devset.tools)
