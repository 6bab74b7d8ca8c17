"""Version ordering: semver precedence (semver.org section 11), PEP 440, calendar, v-prefixed and
free text, against hand-checked orders."""

from __future__ import annotations

import pytest

from lgent.versions import Version, is_semver, with_revision


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


def test_build_metadata_only_breaks_ties() -> None:
    assert Version("1.0.0") < Version("1.0.0+build.5") < Version("1.0.1-alpha")
    assert sorted(["1.0.0+r10", "1.0.0+r2", "1.0.0"], key=Version) == [
        "1.0.0",
        "1.0.0+r2",
        "1.0.0+r10",
    ]


def test_pep440_order_agrees_with_packaging() -> None:
    from packaging.version import Version as Packaging

    texts = [
        "1.0.dev3",
        "1.0a1",
        "1.0a2.dev1",
        "1.0a2",
        "1.0b1",
        "1.0rc1",
        "1.0",
        "1.0.post1",
        "1.1.0a8",
        "1.1.0",
        "2.0.post1",
        "2.0.post2",
        "1!0.1",
    ]
    assert sorted(texts, key=Version) == sorted(texts, key=Packaging)


def test_forms_and_what_they_compare_by() -> None:
    assert Version("1.1.0a8").scheme == "pep440" and Version("1.1.0a8").prerelease == ("alpha", "8")
    assert Version("v1.2.3").scheme == "semver" and Version("v1.2.3") == Version("1.2.3")
    assert Version("2024.06.1").release == (2024, 6, 1)
    assert Version("2024.06.1") < Version("2024.10.0")
    assert Version("1.0.0-alpha.1") == Version("1.0.0a1")  # the same pre-release, either way
    assert Version("1.0") == Version("1.0.0")
    assert not Version("latest").comparable and Version("latest").scheme == "text"


def test_free_text_sorts_below_comparable_and_naturally_among_itself() -> None:
    ordered = ["beta build9", "beta build10", "nightly", "0.0.1", "1.0"]
    assert sorted(reversed(ordered), key=Version) == ordered


@pytest.mark.parametrize("text", ["1", "1.2", "01.2.3", "1.2.3-", "v1.2.3", "1.2.3.4", ""])
def test_not_semver_but_still_a_version(text: str) -> None:
    assert not is_semver(text)
    assert Version(text).text == text


def test_with_revision_orders_after_the_version() -> None:
    assert with_revision("1.0.0", 2) == "1.0.0+r2"
    assert with_revision("1.0.0+b5", 3) == "1.0.0+b5.r3"
    assert Version(with_revision("2.0.post1", 2)) > Version("2.0.post1")
    assert Version(with_revision("latest", 3)) > Version(with_revision("latest", 2))
