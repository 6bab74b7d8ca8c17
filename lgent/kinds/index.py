"""Which kinds' rules may fire on a value or a text, found without running every rule.

Inference asks each of about a hundred kinds about every value; most cannot fire (a date
format, a ``_path`` name, a phrase the description lacks). :class:`KindIndex` keeps the kinds by
what their rules need: a JSON Schema format, the words of their name patterns and phrases
(``lgent.kinds.literals``), or a part of a value (a pattern, an enum, examples, a unit, fields).
The kinds it returns are a superset of those whose rules fire, in vocabulary order, so running
the rules on them alone gives exactly the evidence running them on every kind gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lgent.kinds.literals import phrase_literals

if TYPE_CHECKING:
    from lgent.kinds.records import RecordShape
    from lgent.kinds.schemas import Value
    from lgent.kinds.vocabulary import Kind

MAX_REMEMBERED = 50_000
"""Texts whose candidate kinds are remembered; past it the memo starts again."""


class _Automaton:
    """Every one of many texts found in a text in one pass (an Aho-Corasick automaton: a
    trie of the texts, each state linked to the longest suffix of it that is also a state)."""

    def __init__(self, found: dict[str, frozenset[int]]) -> None:
        self._next: list[dict[str, int]] = [{}]
        self._out: list[frozenset[int]] = [frozenset()]
        for text, marks in found.items():
            state = 0
            for char in text:
                following = self._next[state].get(char)
                if following is None:
                    following = len(self._next)
                    self._next[state][char] = following
                    self._next.append({})
                    self._out.append(frozenset())
                state = following
            self._out[state] = self._out[state] | marks
        self._fail = [0] * len(self._next)
        queue = list(self._next[0].values())
        while queue:
            state = queue.pop(0)
            for char, following in self._next[state].items():
                queue.append(following)
                back = self._fail[state]
                while back and char not in self._next[back]:
                    back = self._fail[back]
                link = self._next[back].get(char, 0)
                self._fail[following] = link if link != following else 0
                self._out[following] = self._out[following] | self._out[self._fail[following]]

    def search(self, text: str) -> frozenset[int]:
        """The marks of every text found in ``text``."""
        hits: set[int] = set()
        state = 0
        for char in text:
            while state and char not in self._next[state]:
                state = self._fail[state]
            state = self._next[state].get(char, 0)
            if self._out[state]:
                hits |= self._out[state]
        return frozenset(hits)


class _Words:
    """Kinds by the literal texts of some of their patterns: one of a kind's literals in a
    text is needed for one of its patterns to match; kinds without literals always may."""

    def __init__(self, kinds: Iterable[tuple[int, tuple[str, ...]]]) -> None:
        by_literal: dict[str, set[int]] = {}
        self.always: frozenset[int] = frozenset()
        self._memo: dict[str, frozenset[int]] = {}
        for position, patterns in kinds:
            if not patterns:
                continue
            literals = phrase_literals(patterns)
            if literals is None:
                self.always |= {position}
            else:
                for literal in literals:
                    by_literal.setdefault(literal, set()).add(position)
        self._automaton = _Automaton({t: frozenset(k) for t, k in by_literal.items()})
        self._everyone = self.always.union(*by_literal.values())

    def may_match(self, text: str) -> frozenset[int]:
        found = self._memo.get(text)
        if found is None:
            if not text.isascii():  # case folding outside ASCII: no literal test
                found = self._everyone
            else:
                found = self.always | self._automaton.search(text.lower())
            if len(self._memo) >= MAX_REMEMBERED:
                self._memo.clear()
            self._memo[text] = found
        return found


class KindIndex:
    """The kinds of a vocabulary indexed by what their rules need (see the module)."""

    def __init__(self, kinds: Iterable[Kind]) -> None:
        self.kinds: tuple[Kind, ...] = tuple(kinds)
        numbered = list(enumerate(self.kinds))
        self._phrases = _Words((i, tuple(p.pattern for p in k.rules.phrases)) for i, k in numbered)
        self._names = _Words((i, tuple(p.pattern for p in k.rules.names)) for i, k in numbered)
        self._by_format: dict[str, list[int]] = {}
        for i, kind in numbered:
            for fmt in kind.rules.formats:
                self._by_format.setdefault(fmt, []).append(i)
        self._patterns = [i for i, k in numbered if k.rules.patterns]
        self._enums = [i for i, k in numbered if k.rules.enums]
        self._values = [i for i, k in numbered if k.rules.values]
        self._units = [i for i, k in numbered if k.rules.units]
        self._fields = [i for i, k in numbered if k.rules.fields]

    def phrase_kinds(self, text: str) -> list[Kind]:
        """The kinds whose phrases may be found in ``text``."""
        return [self.kinds[i] for i in sorted(self._phrases.may_match(text))] if text else []

    def value_kinds(self, value: Value, record: RecordShape | None, head: str = "") -> list[Kind]:
        """The kinds whose rules may fire on ``value`` (``record``: its fields, when it is an
        object; ``head``: the noun phrase its description starts with)."""
        chosen: set[int] = set()
        if value.format:
            chosen.update(self._by_format.get(value.format, ()))
        if value.name:
            chosen |= self._names.may_match(value.name)
        if value.pattern:
            chosen.update(self._patterns)
        if value.enum and len(value.enum) >= 2:
            chosen.update(self._enums)
        if value.examples or value.enum:
            chosen.update(self._values)
        if value.types and value.types <= {"number", "integer"}:
            chosen.update(self._units)
        if value.description:
            chosen |= self._phrases.may_match(value.description)
            if head:
                chosen |= self._phrases.may_match(head)
        if record is not None:
            chosen.update(self._fields)
        return [self.kinds[i] for i in sorted(chosen)]


__all__ = ["MAX_REMEMBERED", "KindIndex"]
