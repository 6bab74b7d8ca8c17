"""Artifact names: exact and fuzzy lookup of the artifact a piece of text names, kept incrementally.

A *key* is an id or a name lowercased with every non-alphanumeric removed (``Summarizer_v4`` ->
``summarizerv4``). A key that some artifact's id gives resolves to that artifact (an id always
wins over a look-alike name; the smallest id if several ids give the key); otherwise to the
smallest id among the artifacts whose name gives it. Adding or removing an artifact touches only
its own two keys.

``fuzzy(key)`` answers exactly what ``difflib.get_close_matches(key, keys, n=1, cutoff=0.88)``
answers over every key (the highest ratio, ties to the greatest key), resolved as above, but
scores only the keys a trigram index (``grams.TrigramIndex``) shows can reach the cutoff.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Iterable, Iterator

from lgent.analysis.stopwords import STOP_WORDS
from lgent.graph.grams import TrigramIndex

FUZZY_CUTOFF = 0.88
"""The lowest ``difflib`` ratio a fuzzy match may have."""
FUZZY_MIN_LENGTH = 5
"""Keys shorter than this are looked up exactly only."""
FUZZY_MAX_WORDS = 4
"""A text of more words than this is a phrase, not a misspelt name: it is looked up exactly
only, as is one of several words that begins with a stop word ("for my team"). (A sentence's
tail read as a name, "similar to X for my team", took about 7 ms to look up fuzzily among 100k
names; the query classifier takes at most as many words for a name.)"""

_NORMALIZE = re.compile(r"[^0-9a-z]+")


def is_phrase(text: str) -> bool:
    """Whether ``text`` reads as words of a sentence rather than a name: more than
    ``FUZZY_MAX_WORDS`` words, or several that begin with a stop word."""
    words = text.split()
    return len(words) > FUZZY_MAX_WORDS or (len(words) > 1 and words[0].lower() in STOP_WORDS)


def normalized(text: str) -> str:
    """Lowercase with every non-alphanumeric removed: ``Summarizer_v4`` -> ``summarizerv4``."""
    return _NORMALIZE.sub("", text.lower())


Owners = str | tuple[str, ...]
"""The ids a key belongs to: one id, or two or more sorted (few keys have several). Plain
strings and tuples of them: the garbage collector stops tracking those, so the index adds no
work to its collections at catalog scale."""


class NameIndex:
    """Which artifact a key names, with a trigram index over the keys for fuzzy lookup (built
    in bulk when first needed: most lookups are exact, and a process answering one question
    should not pay for it)."""

    def __init__(self) -> None:
        self._by_id: dict[str, Owners] = {}  # key -> the ids giving it
        self._by_name: dict[str, Owners] = {}  # key -> the ids whose name gives it
        self._grams: TrigramIndex | None = TrigramIndex()
        self._grams_lock = threading.Lock()

    @classmethod
    def of(cls, artifacts: Iterable[tuple[str, str]]) -> NameIndex:
        """An index of ``(id, name)`` pairs (its trigram index is built when first asked)."""
        index = cls()
        for artifact_id, name in artifacts:
            for table, key in index._keys(artifact_id, name):
                if key:
                    _own(table, key, artifact_id)
        index._grams = None
        return index

    def __getstate__(self) -> dict[str, object]:
        """The key tables (the trigram index is built again when first needed)."""
        return {"_by_id": self._by_id, "_by_name": self._by_name}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._grams = None
        self._grams_lock = threading.Lock()

    @property
    def _keys_index(self) -> TrigramIndex:
        """The trigram index of every key, built in bulk the first time it is needed."""
        grams = self._grams
        if grams is None:
            with self._grams_lock:
                grams = self._grams
                if grams is None:
                    grams = TrigramIndex.of(sorted({*self._by_id, *self._by_name}))
                    self._grams = grams
        return grams

    # ----------------------------------------------------------------------------- changes

    def add(self, artifact_id: str, name: str) -> None:
        """Index ``artifact_id`` under its id and its name (remove its old name first)."""
        for table, key in self._keys(artifact_id, name):
            if not key:
                continue
            if self._grams is not None and key not in self._by_id and key not in self._by_name:
                self._grams.add(key)
            _own(table, key, artifact_id)

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
                if self._grams is not None and key not in self._by_id and key not in self._by_name:
                    self._grams.remove(key)
            elif artifact_id in owners:
                rest = tuple(o for o in owners if o != artifact_id)
                table[key] = rest[0] if len(rest) == 1 else rest

    def _keys(self, artifact_id: str, name: str) -> list[tuple[dict[str, Owners], str]]:
        return [(self._by_id, normalized(artifact_id)), (self._by_name, normalized(name))]

    # ----------------------------------------------------------------------------- reading

    def __len__(self) -> int:
        """Number of keys."""
        return len({*self._by_id, *self._by_name})

    def resolve(self, key: str) -> str | None:
        """The artifact ``key`` (already normalized) names exactly, or None."""
        owners = self._by_id.get(key) or self._by_name.get(key)
        if owners is None or isinstance(owners, str):
            return owners
        return owners[0]

    def owners(self, key: str) -> tuple[str, ...]:
        """Every artifact ``key`` (already normalized) names: by id first, then by name."""
        found: list[str] = []
        for table in (self._by_id, self._by_name):
            owners = table.get(key)
            if owners is not None:
                found += [owners] if isinstance(owners, str) else list(owners)
        return tuple(dict.fromkeys(found))

    def namesakes(self, key: str) -> tuple[str, ...]:
        """The artifacts sharing the name ``key`` (already normalized) when two or more do and
        no id gives it (an id names one artifact); () otherwise."""
        owners = self._by_name.get(key)
        if key in self._by_id or owners is None or isinstance(owners, str):
            return ()
        return owners

    def mapping(self) -> dict[str, str]:
        """Every key and the artifact it resolves to."""
        return {key: str(self.resolve(key)) for key in sorted({*self._by_id, *self._by_name})}

    def state(self) -> tuple[dict[str, Owners], dict[str, Owners], dict[str, set[str]]]:
        """The whole index (id keys, name keys, trigram postings), for comparing two indexes."""
        return dict(self._by_id), dict(self._by_name), self._keys_index.state()

    def candidates(self, key: str, cutoff: float = FUZZY_CUTOFF) -> set[str]:
        """The keys whose ``difflib`` ratio with ``key`` can reach ``cutoff`` (a superset of those
        that do)."""
        return self._keys_index.candidates(key, cutoff)

    def fuzzy(self, key: str, cutoff: float = FUZZY_CUTOFF) -> str | None:
        """The key closest to ``key`` with a ratio of at least ``cutoff``, as
        ``difflib.get_close_matches(key, keys, n=1, cutoff=cutoff)`` picks it; None if none is
        that close or ``key`` is shorter than ``FUZZY_MIN_LENGTH``."""
        if len(key) < FUZZY_MIN_LENGTH:
            return None
        best = max(self._close_keys(key, cutoff), default=None)
        return best[1] if best is not None else None

    def _close_keys(self, key: str, cutoff: float) -> Iterator[tuple[float, str]]:
        """``(ratio, key)`` of every stored key whose ``difflib`` ratio with ``key`` is at least
        ``cutoff`` (the trigram index proposes them; the cheap upper bounds go first)."""
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(key)
        for candidate in self.candidates(key, cutoff):
            matcher.set_seq1(candidate)
            if (
                matcher.real_quick_ratio() >= cutoff
                and matcher.quick_ratio() >= cutoff
                and (ratio := matcher.ratio()) >= cutoff
            ):
                yield ratio, candidate

    def closest(self, text: str, n: int = 3, cutoff: float = 0.6) -> list[str]:
        """Up to ``n`` artifacts whose id or name is closest to ``text`` (``difflib`` ratio of
        the keys, at least ``cutoff``), best first: suggestions for a name that matched none."""
        key = normalized(text)
        if not key:
            return []
        found: list[str] = []
        for _, candidate in sorted((-ratio, k) for ratio, k in self._close_keys(key, cutoff)):
            for artifact in self.owners(candidate):  # two tools named read_file: both
                if artifact not in found:
                    found.append(artifact)
            if len(found) >= n:
                break
        return found[:n]

    def lookup(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The artifact ``text`` names: by id or name, ignoring case and punctuation; then, if
        ``fuzzy`` and ``text`` is not a phrase (``is_phrase``), the closest key's artifact."""
        key = normalized(text)
        if not key:
            return None
        found = self.resolve(key)
        if found is not None or not fuzzy or is_phrase(text):
            return found
        close = self.fuzzy(key)
        return self.resolve(close) if close is not None else None


def _own(table: dict[str, Owners], key: str, artifact_id: str) -> None:
    """Record ``artifact_id`` among the owners of ``key``."""
    owners = table.get(key)
    if owners is None:
        table[key] = artifact_id
    elif isinstance(owners, str):
        if owners != artifact_id:
            table[key] = tuple(sorted((owners, artifact_id)))
    elif artifact_id not in owners:
        table[key] = tuple(sorted((*owners, artifact_id)))


__all__ = ["FUZZY_CUTOFF", "FUZZY_MIN_LENGTH", "NameIndex", "normalized"]
