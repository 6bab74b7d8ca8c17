"""Semantic versions: parsing, validation and ordering (https://semver.org, 2.0.0)."""

from __future__ import annotations

import re
from functools import total_ordering

SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


def is_semver(text: str) -> bool:
    """True when ``text`` is a valid semantic version such as ``1.2.0`` or ``2.0.0-rc.1``."""
    return SEMVER_RE.match(text) is not None


@total_ordering
class Version:
    """A parsed semantic version, ordered by semver precedence (build metadata ignored)."""

    __slots__ = ("major", "minor", "patch", "prerelease", "text")

    def __init__(self, text: str) -> None:
        match = SEMVER_RE.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not a semantic version (expected MAJOR.MINOR.PATCH)")
        self.text = text
        self.major, self.minor, self.patch = (int(match.group(i)) for i in (1, 2, 3))
        pre = match.group(4)
        self.prerelease: tuple[str, ...] = tuple(pre.split(".")) if pre else ()

    def _key(self) -> tuple[int, int, int, int, tuple[tuple[int, int, str], ...]]:
        # A release sorts above any of its pre-releases; numeric identifiers below alphanumeric.
        pre = tuple(
            (0, int(part), "") if part.isdigit() else (1, 0, part) for part in self.prerelease
        )
        return (self.major, self.minor, self.patch, 0 if self.prerelease else 1, pre)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._key() == other._key()

    def __lt__(self, other: Version) -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Version({self.text!r})"

    def __str__(self) -> str:
        return self.text
