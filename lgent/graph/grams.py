"""A trigram index over short keys of ``[0-9a-z]``, and the keys that can be close to a query.

``candidates(b)`` returns every key ``a`` whose ``difflib`` ratio with ``b`` can reach the cutoff
(a superset of those that do). Why the filter loses nothing: ``ratio = 2M / (|a| + |b|)`` with
``M`` matched characters, so a key close to ``b`` has a common subsequence of at least ``M``
characters. Along it, each of the ``d_b = |b| - M`` unmatched characters of ``b`` breaks at most
three of ``b``'s trigram positions, and each run of unmatched characters of ``a`` (at most
``d_a = |a| - M`` runs) at most two; every other trigram position of ``b`` is a trigram of
``a``. So ``a`` contains the trigrams of at least ``tau = (|b| - 2) - 3 d_b - 2 d_a`` of ``b``'s
positions. For each key length where ``tau >= 1``, a candidate must contain one of the rarest
trigrams of ``b`` that leave fewer than ``tau`` positions uncovered (pigeonhole), and trigrams of
at least ``tau`` positions in all; every key of the few lengths where ``tau <= 0`` (a 5-letter
query and 4-letter keys) is a candidate.

The keys given to ``of`` are held as numpy postings (one sorted run per trigram); keys added
later go to a small set-based overlay and removed ones are masked, so a change costs the key's
own trigrams, never a pass over the index. The bulk keys' character counts are kept too, so
that ``difflib``'s ``quick_ratio`` (an upper bound of its ratio) is checked over the survivors
at once rather than one key at a time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_SIZE = len(ALPHABET)
_CODES = np.full(256, -1, dtype=np.int64)
_CODES[[ord(c) for c in ALPHABET]] = np.arange(_SIZE)
_N_GRAMS = _SIZE**3

IntArray = npt.NDArray[np.int64]


def trigrams(key: str) -> list[str]:
    """The trigram at each position of ``key`` (none when it is shorter than 3)."""
    return [key[i : i + 3] for i in range(len(key) - 2)]


def _code(gram: str) -> int:
    return int((_CODES[ord(gram[0])] * _SIZE + _CODES[ord(gram[1])]) * _SIZE + _CODES[ord(gram[2])])


def _least_matches(total: int, cutoff: float) -> int | None:
    """The fewest matched characters ``M`` with ``2M / total >= cutoff`` (as difflib computes
    it), or None if even ``total // 2`` is too few."""
    for m in range(max(0, math.floor(cutoff * total / 2) - 1), total // 2 + 1):
        if 2.0 * m / total >= cutoff:
            return m
    return None


def shared_trigrams(query_length: int, key_length: int, cutoff: float) -> int | None:
    """The fewest trigram positions of a ``query_length`` query that a ``key_length`` key with
    a ratio of at least ``cutoff`` must contain (None: no such key can reach the cutoff)."""
    total = query_length + key_length
    if 2.0 * min(query_length, key_length) / total < cutoff:  # difflib's real_quick_ratio
        return None
    m = _least_matches(total, cutoff)
    if m is None or m > min(query_length, key_length):
        return None
    return (query_length - 2) - 3 * (query_length - m) - 2 * (key_length - m)


class TrigramIndex:
    """Keys of ``[0-9a-z]`` by trigram and by length (see the module docstring). Keys with other
    characters are stored, but their trigrams with such characters are not indexed in bulk:
    give it normalized keys."""

    def __init__(self) -> None:
        self._base: list[str] = []  # the keys given to ``of``
        self._base_at: dict[str, int] = {}
        self._alive: npt.NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        self._lengths: IntArray = np.zeros(0, dtype=np.int64)
        self._postings: IntArray = np.zeros(0, dtype=np.int64)  # base key numbers by trigram
        # base key number -> how many of each character of ALPHABET it has (capped at 255)
        self._counts: npt.NDArray[np.uint8] = np.zeros((0, _SIZE), dtype=np.uint8)
        self._counted: npt.NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)  # counts are exact
        self._offsets: IntArray = np.zeros(_N_GRAMS + 1, dtype=np.int64)
        self._extra: dict[str, set[str]] = {}  # trigram -> keys added since
        self._by_length: dict[int, set[str]] = {}  # every key present, by length

    @classmethod
    def of(cls, keys: Iterable[str]) -> TrigramIndex:
        """An index holding ``keys`` (distinct), built in bulk."""
        index = cls()
        base = index._base = list(keys)
        index._base_at = {k: n for n, k in enumerate(base)}
        index._alive = np.ones(len(base), dtype=np.bool_)
        index._lengths = np.array([len(k) for k in base], dtype=np.int64)
        for key in base:
            index._by_length.setdefault(len(key), set()).add(key)
        width = int(index._lengths.max(initial=0))
        if width < 3:
            return index
        padded = "".join(k.ljust(width, " ") for k in base).encode("ascii", "replace")
        chars = _CODES[np.frombuffer(padded, dtype=np.uint8)].reshape(len(base), width)
        known = chars >= 0
        rows = np.broadcast_to(np.arange(len(base))[:, None], chars.shape)
        counts = np.bincount((rows * _SIZE + chars)[known], minlength=len(base) * _SIZE)
        index._counts = np.minimum(counts, 255).astype(np.uint8).reshape(len(base), _SIZE)
        index._counted = (known.sum(axis=1) == index._lengths) & (index._lengths <= 255)
        first, second, third = chars[:, :-2], chars[:, 1:-1], chars[:, 2:]
        valid = (first >= 0) & (second >= 0) & (third >= 0)
        # row by row, so a stable sort by trigram (a radix sort: codes fit 16 bits) keeps
        # each trigram's keys in order
        codes = ((first * _SIZE + second) * _SIZE + third)[valid].astype(np.uint16)
        keys_of = np.broadcast_to(np.arange(len(base))[:, None], valid.shape)[valid]
        order = np.argsort(codes, kind="stable")
        codes, keys_of = codes[order], keys_of[order]
        once = np.ones(len(codes), dtype=np.bool_)  # a key holding a trigram twice: once
        once[1:] = (codes[1:] != codes[:-1]) | (keys_of[1:] != keys_of[:-1])
        codes, keys_of = codes[once], keys_of[once]
        index._postings = keys_of.astype(np.int64)
        index._offsets = np.zeros(_N_GRAMS + 1, dtype=np.int64)
        np.cumsum(np.bincount(codes, minlength=_N_GRAMS), out=index._offsets[1:])
        return index

    # ----------------------------------------------------------------------------- changes

    def add(self, key: str) -> None:
        """Index ``key`` (already present: nothing)."""
        if key in self._by_length.get(len(key), ()):
            return
        self._by_length.setdefault(len(key), set()).add(key)
        at = self._base_at.get(key)
        if at is not None:
            self._alive[at] = True
            return
        for gram in set(trigrams(key)):
            keys = self._extra.get(gram)
            if keys is None:
                self._extra[gram] = {key}
            else:
                keys.add(key)

    def remove(self, key: str) -> None:
        """Forget ``key`` (absent: nothing)."""
        same = self._by_length.get(len(key))
        if same is None or key not in same:
            return
        same.discard(key)
        if not same:
            del self._by_length[len(key)]
        at = self._base_at.get(key)
        if at is not None:
            self._alive[at] = False
            return
        for gram in set(trigrams(key)):
            keys = self._extra[gram]
            keys.discard(key)
            if not keys:
                del self._extra[gram]

    # ----------------------------------------------------------------------------- reading

    def __len__(self) -> int:
        return sum(len(keys) for keys in self._by_length.values())

    def postings(self, gram: str) -> set[str]:
        """The keys containing ``gram``."""
        run = self._run(gram)
        found = {self._base[n] for n in run[self._alive[run]].tolist()}
        return found | self._extra.get(gram, set())

    def state(self) -> dict[str, set[str]]:
        """Every trigram with the keys containing it (for comparing two indexes)."""
        found: dict[str, set[str]] = {}
        for code in np.flatnonzero(np.diff(self._offsets)).tolist():
            gram = (
                ALPHABET[code // _SIZE**2]
                + ALPHABET[code // _SIZE % _SIZE]
                + ALPHABET[code % _SIZE]
            )
            keys = self.postings(gram)
            if keys:
                found[gram] = keys
        for gram in self._extra:
            found[gram] = self.postings(gram)
        return dict(sorted(found.items()))

    def _run(self, gram: str) -> IntArray:
        """The base keys containing ``gram`` (removed ones included)."""
        if len(gram) != 3 or not all(c in ALPHABET for c in gram):
            return self._postings[:0]
        code = _code(gram)
        return self._postings[self._offsets[code] : self._offsets[code + 1]]

    def candidates(self, query: str, cutoff: float) -> set[str]:
        """Every key whose ``difflib`` ratio with ``query`` (of ``[0-9a-z]``) can reach
        ``cutoff`` (see the module docstring)."""
        taus = {
            length: tau
            for length in self._by_length
            if (tau := shared_trigrams(len(query), length, cutoff)) is not None
        }
        found: set[str] = set()
        for length, tau in taus.items():
            if tau <= 0:
                found |= self._by_length[length]
        strong = {length: tau for length, tau in taus.items() if tau > 0}
        if not strong:
            return found
        need = min(strong.values())
        positions = Counter(trigrams(query))
        runs = {gram: self._run(gram) for gram in positions}
        rarest = sorted(positions, key=lambda g: (len(runs[g]) + len(self._extra.get(g, ())), g))
        # count, per key, the positions of `query` whose trigram it contains, over the rarest
        # trigrams until fewer than `need` positions are left: a close key has one of those
        taken: list[str] = []
        uncovered = len(query) - 2
        while rarest and uncovered >= need:
            taken.append(rarest.pop(0))
            uncovered -= positions[taken[-1]]
        chosen = [runs[g] for g in taken]
        weights = [np.full(len(runs[g]), positions[g], dtype=np.int64) for g in taken]
        counts = np.bincount(
            np.concatenate([np.zeros(0, dtype=np.int64), *chosen]),
            np.concatenate([np.zeros(0, dtype=np.int64), *weights]),
            minlength=len(self._base),
        )
        if len(self._base):
            bar = np.full(int(self._lengths.max()) + 1, np.iinfo(np.int64).max, dtype=np.int64)
            for length, tau in strong.items():
                if length < len(bar):
                    bar[length] = tau
            hopeful = (counts > 0) & self._alive & (counts + uncovered >= bar[self._lengths])
            numbers = np.flatnonzero(hopeful)
            shared = counts[numbers]
            for gram in rarest:  # the positions of the other trigrams each key contains
                run = runs[gram]
                if run.size:
                    at = np.minimum(np.searchsorted(run, numbers), run.size - 1)
                    shared += positions[gram] * (run[at] == numbers)
            numbers = numbers[shared >= bar[self._lengths[numbers]]]
            numbers = numbers[self._quick_ratio_reaches(query, numbers, cutoff)]
            found.update(self._base[n] for n in numbers.tolist())
        extra: Counter[str] = Counter()
        for gram in taken:
            for _ in range(positions[gram]):
                extra.update(self._extra.get(gram, ()))
        for key, count in extra.items():
            tau = strong.get(len(key))
            if tau is None or count + uncovered < tau:
                continue
            if count + sum(positions[g] for g in rarest if g in key) >= tau:
                found.add(key)
        return found

    def _quick_ratio_reaches(
        self, query: str, numbers: IntArray, cutoff: float
    ) -> npt.NDArray[np.bool_]:
        """For each base key number, False when ``difflib``'s ``quick_ratio`` of the key and
        ``query`` (twice the characters they share, counted as multisets, over their total
        length) is below ``cutoff``; True when it is not, or when the counts cannot tell (a key
        or a query with characters outside ALPHABET, or a key longer than 255)."""
        codes = _CODES[np.frombuffer(query.encode("ascii", "replace"), dtype=np.uint8)]
        if (codes < 0).any():
            return np.ones(len(numbers), dtype=np.bool_)
        wanted = np.bincount(codes, minlength=_SIZE)
        shared = np.minimum(self._counts[numbers], wanted).sum(axis=1)
        reaches: npt.NDArray[np.bool_] = (
            2.0 * shared / (self._lengths[numbers] + len(query)) >= cutoff
        ) | ~self._counted[numbers]
        return reaches


__all__ = ["ALPHABET", "TrigramIndex", "shared_trigrams", "trigrams"]
