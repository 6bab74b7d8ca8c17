"""Fixtures of the semantic brain tests: entries, a hashing embedder, and the real model once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder, SentenceTransformerEmbedder
from lgent.brains.semantic.onnx_embedder import OnnxEmbedder
from lgent.brains.semantic.settings import SemanticSettings
from lgent.models import CatalogEntry


def entry(artifact_id: str, **fields: Any) -> CatalogEntry:
    """A valid entry; ``name`` defaults to the id."""
    name = fields.pop("name", artifact_id)
    return CatalogEntry.parse({"id": artifact_id, "name": name, **fields})


PDF = {"keywords": ["pdf"], "input_type": "PDF", "output_type": "Document"}


CATALOG = [
    entry(
        "text-normalizer",
        name="TextNormalizer",
        entity_type="tool",
        description="Cleans up messy text: fixes whitespace, unicode and letter case.",
        keywords=["text", "cleanup"],
        input_type="Text",
        output_type="Text",
    ),
    entry(
        "pdf-parser",
        name="PDFParser",
        description="Parses PDF files into documents.",
        author="Ada",
        **PDF,
    ),
    entry(
        "pdf-parser-v2",
        name="PDFParser_v2",
        description="Parses PDF files into documents, faster.",
        author="ada",
        relations=[{"type": "successor_to", "target": "pdf-parser"}],
        **PDF,
    ),
    entry(
        "pdf-parser-v3",
        name="PDFParser_v3",
        description="Parses PDF files into documents, fastest.",
        status="experimental",
        relations=[{"type": "successor_to", "target": "pdf-parser-v2"}],
        **PDF,
    ),
    entry(
        "pdf-reader",
        name="PDFReader",
        description="Reads PDF files into documents.",
        execution="local",
        **PDF,
    ),
    entry(
        "translator",
        name="Translator",
        entity_type="agent",
        description="Translates text between human languages.",
        execution="cloud",
    ),
    entry(
        "csv-to-json",
        name="CsvToJson",
        description="Converts CSV tables into JSON records.",
        keywords=["convert", "format"],
        input_type="CSV",
        output_type="JSON",
    ),
    entry(
        "sentiment",
        name="SentimentScorer",
        entity_type="model",
        description="Scores the sentiment of product reviews as positive or negative.",
        status="deprecated",
    ),
]


@pytest.fixture
def hashing() -> HashingEmbedder:
    return HashingEmbedder(64)


@pytest.fixture
def settings() -> SemanticSettings:
    return SemanticSettings(threshold=-1.0)


@pytest.fixture(params=["memory", "disk"])
def brain_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | None:
    return None if request.param == "memory" else tmp_path / "semantic"


@pytest.fixture
def brain(
    brain_path: Path | None, settings: SemanticSettings, hashing: HashingEmbedder
) -> Iterator[SemanticBrain]:
    b = SemanticBrain(brain_path, settings, hashing)
    b.build(CATALOG, [], 1)
    yield b
    b.close()


RealEmbedder = SentenceTransformerEmbedder | OnnxEmbedder


@pytest.fixture(scope="session", params=["onnx", "sentence-transformers"])
def real_embedder(request: pytest.FixtureRequest) -> RealEmbedder:
    """The packaged all-MiniLM-L6-v2 on each real embedder, loaded once for the whole session:
    the brain tests run on both, the default (ONNX) and sentence-transformers on torch."""
    embedder: RealEmbedder = (
        OnnxEmbedder() if request.param == "onnx" else SentenceTransformerEmbedder()
    )
    embedder.embed_batch(["warm up"])
    return embedder
