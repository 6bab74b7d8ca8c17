"""Semantic version ordering against hand-checked precedence (semver.org section 11)."""

from __future__ import annotations

import pytest

from lgent.versions import Version, is_semver


def test_precedence() -> None:
    ordered = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
        "1.2.0",
        "1.10.0",
        "2.0.0",
    ]
    assert sorted(reversed(ordered), key=Version) == ordered


def test_build_metadata_is_ignored_for_order() -> None:
    assert Version("1.0.0+build.5") == Version("1.0.0")


@pytest.mark.parametrize("text", ["1", "1.2", "01.2.3", "1.2.3-", "v1.2.3", "1.2.3.4", ""])
def test_invalid(text: str) -> None:
    assert not is_semver(text)
    with pytest.raises(ValueError, match="not a semantic version"):
        Version(text)
