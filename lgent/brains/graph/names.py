"""Artifact names: exact and fuzzy lookup of the artifact a piece of text names, kept incrementally.

A *key* is an id or a name lowercased with every non-alphanumeric removed (``Summarizer_v4`` ->
``summarizerv4``). A key that some artifact's id gives resolves to that artifact (an id always
wins over a look-alike name; the smallest id if several ids give the key); otherwise to the
smallest id among the artifacts whose name gives it. Adding or removing an artifact touches only
its own two keys.

``fuzzy(key)`` answers exactly what ``difflib.get_close_matches(key, keys, n=1, cutoff=0.88)``
answers over every key (the highest ratio, ties to the greatest key), resolved as above, but
scores only keys that can reach the cutoff. Why that loses nothing: ``ratio = 2M / (|a| + |b|)``
with ``M`` matched characters, so a key ``a`` close to the query ``b`` has a common subsequence
of at least ``M`` characters. Along it, each of the ``d_b = |b| - M`` unmatched characters of
``b`` breaks at most three of ``b``'s trigram positions, and each run of unmatched characters of
``a`` (at most ``d_a = |a| - M`` of them) at most two; every other trigram position of ``b`` is
a trigram of ``a``. So ``a`` shares at least ``tau = (|b| - 2) - 3 d_b - 2 d_a`` of ``b``'s
trigram positions. For each key length where ``tau >= 1`` a candidate must contain one of the
rarest trigrams of ``b`` that leave fewer than ``tau`` positions uncovered (pigeonhole), and
contain trigrams of at least ``tau`` of ``b``'s positions in all; only those are scored, plus
every key of the few lengths where ``tau <= 0`` (a 5-letter query and 4-letter keys).
"""

from __future__ import annotations

import bisect
import difflib
import math
import re
from collections import Counter

FUZZY_CUTOFF = 0.88
"""The lowest ``difflib`` ratio a fuzzy match may have."""
FUZZY_MIN_LENGTH = 5
"""Keys shorter than this are looked up exactly only."""

_NORMALIZE = re.compile(r"[^0-9a-z]+")


def normalized(text: str) -> str:
    """Lowercase with every non-alphanumeric removed: ``Summarizer_v4`` -> ``summarizerv4``."""
    return _NORMALIZE.sub("", text.lower())


def trigrams(key: str) -> list[str]:
    """The trigram at each position of ``key`` (none when it is shorter than 3)."""
    return [key[i : i + 3] for i in range(len(key) - 2)]


def _least_matches(total: int, cutoff: float) -> int | None:
    """The fewest matched characters ``M`` with ``2M / total >= cutoff`` (as difflib computes
    it), or None if even ``total // 2`` is too few."""
    for m in range(math.floor(cutoff * total / 2) - 1, total // 2 + 1):
        if m >= 0 and 2.0 * m / total >= cutoff:
            return m
    return None


def _shared_trigrams(query_length: int, key_length: int, cutoff: float) -> int | None:
    """The fewest trigram positions of a ``query_length`` query that a ``key_length`` key with
    a ratio of at least ``cutoff`` must share (None: no such key can reach the cutoff)."""
    total = query_length + key_length
    if 2.0 * min(query_length, key_length) / total < cutoff:  # difflib's real_quick_ratio
        return None
    m = _least_matches(total, cutoff)
    if m is None or m > min(query_length, key_length):
        return None
    return (query_length - 2) - 3 * (query_length - m) - 2 * (key_length - m)


Owners = str | list[str]
"""The ids a key belongs to: one id, or two or more sorted (few keys have several, and a plain
string keeps the garbage collector's work down at catalog scale)."""


class NameIndex:
    """Which artifact a key names, with a trigram index over the keys for fuzzy lookup."""

    def __init__(self) -> None:
        self._by_id: dict[str, Owners] = {}  # key -> the ids giving it
        self._by_name: dict[str, Owners] = {}  # key -> the ids whose name gives it
        self._grams: dict[str, set[str]] = {}  # trigram -> keys containing it
        self._by_length: dict[int, set[str]] = {}  # length -> keys

    # ----------------------------------------------------------------------------- changes

    def add(self, artifact_id: str, name: str) -> None:
        """Index ``artifact_id`` under its id and its name (remove its old name first)."""
        for table, key in self._keys(artifact_id, name):
            if not key:
                continue
            if key not in self._by_id and key not in self._by_name:
                self._index_key(key)
            owners = table.get(key)
            if owners is None:
                table[key] = artifact_id
            elif isinstance(owners, str):
                if owners != artifact_id:
                    table[key] = sorted((owners, artifact_id))
            elif artifact_id not in owners:
                bisect.insort(owners, artifact_id)

    def remove(self, artifact_id: str, name: str) -> None:
        """Forget ``artifact_id`` as indexed under its id and ``name`` (absent: nothing)."""
        for table, key in self._keys(artifact_id, name):
            owners = table.get(key)
            if owners is None:
                continue
            if isinstance(owners, str):
                if owners != artifact_id:
                    continue
                del table[key]
                if key not in self._by_id and key not in self._by_name:
                    self._unindex_key(key)
            elif artifact_id in owners:
                owners.remove(artifact_id)
                if len(owners) == 1:
                    table[key] = owners[0]

    def _keys(self, artifact_id: str, name: str) -> list[tuple[dict[str, Owners], str]]:
        return [(self._by_id, normalized(artifact_id)), (self._by_name, normalized(name))]

    def _index_key(self, key: str) -> None:
        for gram in set(trigrams(key)):
            self._grams.setdefault(gram, set()).add(key)
        self._by_length.setdefault(len(key), set()).add(key)

    def _unindex_key(self, key: str) -> None:
        for gram in set(trigrams(key)):
            keys = self._grams[gram]
            keys.discard(key)
            if not keys:
                del self._grams[gram]
        keys = self._by_length[len(key)]
        keys.discard(key)
        if not keys:
            del self._by_length[len(key)]

    # ----------------------------------------------------------------------------- reading

    def __len__(self) -> int:
        """Number of keys."""
        return sum(len(keys) for keys in self._by_length.values())

    def resolve(self, key: str) -> str | None:
        """The artifact ``key`` (already normalized) names exactly, or None."""
        owners = self._by_id.get(key) or self._by_name.get(key)
        if owners is None or isinstance(owners, str):
            return owners
        return owners[0]

    def mapping(self) -> dict[str, str]:
        """Every key and the artifact it resolves to."""
        return {key: str(self.resolve(key)) for key in sorted({*self._by_id, *self._by_name})}

    def state(self) -> tuple[dict[str, Owners], dict[str, Owners], dict[str, set[str]]]:
        """The whole index (id keys, name keys, trigram postings), for comparing two indexes."""

        def copy(table: dict[str, Owners]) -> dict[str, Owners]:
            return {k: v if isinstance(v, str) else list(v) for k, v in table.items()}

        return copy(self._by_id), copy(self._by_name), {g: set(k) for g, k in self._grams.items()}

    def candidates(self, key: str, cutoff: float = FUZZY_CUTOFF) -> set[str]:
        """The keys whose ``difflib`` ratio with ``key`` can reach ``cutoff`` (a superset of those
        that do; see the module docstring)."""
        taus = {
            length: tau
            for length in self._by_length
            if (tau := _shared_trigrams(len(key), length, cutoff)) is not None
        }
        found: set[str] = set()
        for length, tau in taus.items():
            if tau <= 0:
                found |= self._by_length[length]
        strong = {length: tau for length, tau in taus.items() if tau > 0}
        if not strong:
            return found
        need = min(strong.values())
        positions = Counter(trigrams(key))
        rarest = sorted(positions, key=lambda g: (len(self._grams.get(g, ())), g))
        # shared[k]: positions of `key` whose trigram `k` contains, counted over the rarest
        # trigrams until fewer than `need` positions are left: a close key has one of those
        shared: Counter[str] = Counter()
        uncovered = len(key) - 2
        while rarest and uncovered >= need:
            gram = rarest.pop(0)
            for _ in range(positions[gram]):
                shared.update(self._grams.get(gram, ()))
            uncovered -= positions[gram]
        for candidate, count in shared.items():
            tau = strong.get(len(candidate))
            if tau is None or count + uncovered < tau:
                continue
            if count + sum(positions[g] for g in rarest if g in candidate) >= tau:
                found.add(candidate)
        return found

    def fuzzy(self, key: str, cutoff: float = FUZZY_CUTOFF) -> str | None:
        """The key closest to ``key`` with a ratio of at least ``cutoff``, as
        ``difflib.get_close_matches(key, keys, n=1, cutoff=cutoff)`` picks it; None if none is
        that close or ``key`` is shorter than ``FUZZY_MIN_LENGTH``."""
        if len(key) < FUZZY_MIN_LENGTH:
            return None
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(key)
        best: tuple[float, str] | None = None
        for candidate in self.candidates(key, cutoff):
            matcher.set_seq1(candidate)
            if (
                matcher.real_quick_ratio() >= cutoff
                and matcher.quick_ratio() >= cutoff
                and (ratio := matcher.ratio()) >= cutoff
                and (best is None or (ratio, candidate) > best)
            ):
                best = (ratio, candidate)
        return best[1] if best is not None else None

    def lookup(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The artifact ``text`` names: by id or name, ignoring case and punctuation; then, if
        ``fuzzy``, the closest key's artifact."""
        key = normalized(text)
        if not key:
            return None
        found = self.resolve(key)
        if found is not None or not fuzzy:
            return found
        close = self.fuzzy(key)
        return self.resolve(close) if close is not None else None


__all__ = ["FUZZY_CUTOFF", "FUZZY_MIN_LENGTH", "NameIndex", "normalized", "trigrams"]
