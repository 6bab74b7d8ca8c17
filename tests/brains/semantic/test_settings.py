"""SemanticSettings: defaults and validation."""

from __future__ import annotations

from typing import Any

import pytest

from lgent.brains.semantic.settings import DEFAULT_HNSW_THRESHOLD, SemanticSettings
from lgent.errors import SettingsError


def test_defaults() -> None:
    settings = SemanticSettings()
    assert settings.model_path is None and settings.text_mode == "plain"
    assert settings.hnsw_threshold == DEFAULT_HNSW_THRESHOLD == 20_000
    with pytest.raises(TypeError):
        SemanticSettings("plain")  # type: ignore[call-arg]  # keyword-only


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("model_path", "  ", "semantic.model_path: must be a non-empty path or None"),
        ("text_mode", "fancy", "semantic.text_mode: must be 'plain' or 'weighted', got 'fancy'"),
        ("threshold", 1.5, r"semantic.threshold: must be a number in \[-1, 1\], got 1.5"),
        ("weak_match", -2, r"semantic.weak_match: must be a number in \[-1, 1\], got -2"),
        ("weak_match", True, r"semantic.weak_match: must be a number in \[-1, 1\], got True"),
        ("threshold", True, "semantic.threshold"),
        ("hnsw_threshold", 0, "semantic.hnsw_threshold: must be an integer >= 1, got 0"),
        ("hnsw_m", 1, "semantic.hnsw_m: must be an integer >= 2"),
        ("ef_search", 2.5, "semantic.ef_search: must be an integer >= 1, got 2.5"),
        ("batch_size", 0, "semantic.batch_size"),
        ("query_cache_size", -1, "semantic.query_cache_size: must be an integer >= 0"),
    ],
)
def test_bad_values_name_the_setting(field: str, value: Any, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        SemanticSettings(**{field: value})
