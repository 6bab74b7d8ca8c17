"""Versions as real catalogs write them, and their order.

Any version text is accepted; what it can be compared by depends on its form:

* **Semantic** (https://semver.org, 2.0.0): ``1.2.0``, ``2.0.0-rc.1``, ``1.0.0+build.5``.
* **PEP 440** (Python packaging): ``1.1.0a8``, ``2.0.post1``, ``1.0.dev3``, ``1!2.0``; calendar
  versions such as ``2024.06.1`` are of this form too.
* Either, with a leading ``v`` or ``V``: ``v1.2.3``.
* **Free text**: anything else (``latest``, ``2016-10-01 beta``). Kept as written.

Order: comparable versions by release numbers (``1.0`` equals ``1.0.0`` in precedence), then
pre-releases below the release (semver identifiers, or PEP 440 ``a``/``b``/``rc`` read as
``alpha``/``beta``/``rc``, so ``1.0.0-alpha.1`` and ``1.0.0a1`` agree), development releases
lowest and post-releases above. Build metadata (``+...``) does not change precedence; it only
orders versions of equal precedence (plain first), so the order is total. Free-text versions sort
below every comparable one, among themselves by text with digit runs compared as numbers
(``build9`` before ``build10``).
"""

from __future__ import annotations

import re
from functools import total_ordering

SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
UNVERSIONED = "unversioned"
"""The version of an imported artifact whose source gives none (free text: it sorts below every
real version, so the first real one a later import brings is the latest)."""
_PHASES = {"a": "alpha", "b": "beta", "rc": "rc"}
_DIGITS = re.compile(r"(\d+)")

_Part = tuple[int, int, str]


def is_semver(text: str) -> bool:
    """True when ``text`` is a valid semantic version such as ``1.2.0`` or ``2.0.0-rc.1``."""
    return SEMVER_RE.match(text) is not None


def _natural(text: str) -> tuple[_Part, ...]:
    """``text`` as parts that compare digit runs as numbers (``r9`` < ``r10``)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in _DIGITS.split(text)
        if part
    )


def _identifiers(parts: tuple[str, ...]) -> tuple[_Part, ...]:
    # semver: numeric identifiers below alphanumeric ones, numbers compared as numbers
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


@total_ordering
class Version:
    """A version of any form (see the module docstring), ordered.

    ``scheme`` is ``semver``, ``pep440`` or ``text``; ``release`` holds the release numbers
    (empty for free text); ``prerelease`` is the pre-release identifiers, PEP 440 dev releases
    included (``("dev", "3")``)."""

    __slots__ = ("_sort", "build", "epoch", "post", "prerelease", "release", "scheme", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.epoch = 0
        self.release: tuple[int, ...] = ()
        self.prerelease: tuple[str, ...] = ()
        self.post: int | None = None
        self.build = ""
        dev: int | None = None
        bare = text.strip()
        if bare[:1] in ("v", "V") and bare[1:2].isdigit():
            bare = bare[1:]
        match = SEMVER_RE.match(bare)
        if match is not None:
            self.scheme = "semver"
            self.release = tuple(int(match.group(i)) for i in (1, 2, 3))
            pre = match.group(4)
            self.prerelease = tuple(pre.split(".")) if pre else ()
            self.build = match.group(5) or ""
        else:
            parsed = _pep440(bare)
            if parsed is None:
                self.scheme = "text"
            else:
                self.scheme = "pep440"
                self.epoch, self.release = parsed.epoch, parsed.release
                if parsed.pre is not None:
                    self.prerelease = (_PHASES[parsed.pre[0]], str(parsed.pre[1]))
                self.post, dev = parsed.post, parsed.dev
                if dev is not None:
                    self.prerelease = (*self.prerelease, "dev", str(dev))
                self.build = parsed.local or ""
        self._sort = self._key(dev)

    @property
    def comparable(self) -> bool:
        """False for free text, which is ordered by its text only."""
        return self.scheme != "text"

    @property
    def major(self) -> int:
        return self.release[0] if self.release else 0

    @property
    def minor(self) -> int:
        return self.release[1] if len(self.release) > 1 else 0

    def _key(self, dev: int | None) -> tuple[object, ...]:
        if self.scheme == "text":
            return (0, _natural(self.text))
        release = list(self.release)
        while release and release[-1] == 0:
            release.pop()
        if self.scheme == "pep440":
            pre = self.prerelease[:-2] if dev is not None else self.prerelease
            if pre:
                stage: tuple[object, ...] = (1, _identifiers(pre))
            elif dev is not None and self.post is None:
                stage = (0, ())  # X.devN sorts below every pre-release of X
            else:
                stage = (2, ())
            post = (0, 0) if self.post is None else (1, self.post)
            devkey = (1, 0) if dev is None else (0, dev)
        else:
            stage = (1, _identifiers(self.prerelease)) if self.prerelease else (2, ())
            post, devkey = (0, 0), (1, 0)
        return (1, self.epoch, tuple(release), stage, post, devkey, _natural(self.build))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._sort == other._sort

    def __lt__(self, other: Version) -> bool:
        return self._sort < other._sort

    def __hash__(self) -> int:
        return hash(self._sort)

    def __repr__(self) -> str:
        return f"Version({self.text!r})"

    def __str__(self) -> str:
        return self.text


def with_revision(version: str, revision: int) -> str:
    """``version`` marked as its ``revision``-th re-import with changed content (``1.0.0`` ->
    ``1.0.0+r2``): same precedence, ordered after the plain version and earlier revisions."""
    parsed = Version(version)
    if parsed.build and parsed.scheme != "text":
        return f"{version}.r{revision}"
    return f"{version}+r{revision}"


def _pep440(text: str) -> _Pep440 | None:
    from packaging.version import InvalidVersion
    from packaging.version import Version as PackagingVersion

    try:
        parsed = PackagingVersion(text)
    except InvalidVersion:
        return None
    return _Pep440(
        parsed.epoch, parsed.release, parsed.pre, parsed.post, parsed.dev, parsed.local or ""
    )


class _Pep440:
    __slots__ = ("dev", "epoch", "local", "post", "pre", "release")

    def __init__(
        self,
        epoch: int,
        release: tuple[int, ...],
        pre: tuple[str, int] | None,
        post: int | None,
        dev: int | None,
        local: str,
    ) -> None:
        self.epoch, self.release, self.pre = epoch, release, pre
        self.post, self.dev, self.local = post, dev, local


__all__ = ["SEMVER_RE", "Version", "is_semver", "with_revision"]
