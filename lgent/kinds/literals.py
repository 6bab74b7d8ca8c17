"""A quick test before a phrase's regular expression is searched: the words it needs.

A phrase such as ``\\b(?:source|program) code\\b`` cannot match a text without `` code``, and
``\\bfile ?paths?\\b`` none without ``file``. :func:`required_literals` finds, for a pattern, a
set of texts one of which every match contains (in any case), and :func:`lacks_all` says that a
text holds none of a kind's: the kind's phrases are then ruled out without running them (an
import searches thousands of descriptions against about a hundred kinds).

The test is exact, never a guess. The pattern is read by a small parser of the common syntax
(literals, escapes, classes, groups, alternation, quantifiers, anchors, lookarounds); anything
else (backreferences, conditionals, inline flags, a literal shorter than ``MIN_LITERAL``) gives
no literals, and the kind is always searched. Only ASCII texts are tested, where ``str.lower``
folds case as the regular expression engine does (outside ASCII, the long s, U+017F, matches ``s``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

MIN_LITERAL = 2
"""Shorter literals test too little to be worth it."""

Need = frozenset[str] | None
"""Texts one of which a match contains; None: nothing certain."""


class _Unsupported(Exception):
    """Syntax the parser does not read: no literals for that pattern."""


@dataclass
class _Parser:
    pattern: str
    at: int = 0

    def peek(self, n: int = 1) -> str:
        return self.pattern[self.at : self.at + n]

    def alternation(self) -> Need:
        """Alternatives up to ``)`` or the end: each must need something."""
        needs = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            needs.append(self.sequence())
        if any(n is None for n in needs):
            return None
        return frozenset().union(*(n for n in needs if n is not None))

    def sequence(self) -> Need:
        """Items up to ``|``, ``)`` or the end; the most selective need of its parts."""
        best: Need = None
        run: list[str] = []

        def close_run() -> None:
            nonlocal best
            if run:
                best = _better(best, frozenset({"".join(run)}))
                run.clear()

        while self.at < len(self.pattern) and self.peek() not in ("|", ")"):
            literal, need, zero_width = self.item()
            quantifier = self.quantifier()
            if zero_width:
                continue
            if literal is not None and quantifier == "once":
                run.append(literal)
                continue
            if literal is not None and quantifier == "some":
                run.append(literal)
                close_run()
                continue
            close_run()
            if quantifier in ("once", "some") and need is not None:
                best = _better(best, need)
        close_run()
        return best

    def item(self) -> tuple[str | None, Need, bool]:
        """One item: ``(its literal character or None, its need, zero width?)``."""
        c = self.peek()
        if c == "\\":
            escaped = self.peek(2)[1:]
            self.at += 2
            if escaped in ("b", "B", "A", "Z"):
                return None, None, True
            if not escaped or escaped.isalnum() or not escaped.isascii():
                return None, None, False  # \d, \w, \s, \1, \n...: not one known character
            return escaped, None, False
        if c in ("^", "$"):
            self.at += 1
            return None, None, True
        if c == "[":
            self.skip_class()
            return None, None, False
        if c == ".":
            self.at += 1
            return None, None, False
        if c == "(":
            return self.group()
        if c in ("*", "+", "?", "{"):
            raise _Unsupported(c)
        self.at += 1
        return c, None, False

    def group(self) -> tuple[str | None, Need, bool]:
        self.at += 1
        zero_width = False
        if self.peek() == "?":
            for opening, lookaround in (
                ("?:", False),
                ("?=", True),
                ("?!", True),
                ("?<=", True),
                ("?<!", True),
            ):
                if self.pattern.startswith(opening, self.at):
                    self.at += len(opening)
                    zero_width = lookaround
                    break
            else:
                if not self.pattern.startswith("?P<", self.at):
                    raise _Unsupported("(?")  # flags, comments, backreferences, conditionals
                end = self.pattern.find(">", self.at)
                if end < 0:
                    raise _Unsupported("(?P<")
                self.at = end + 1
        need = self.alternation()
        if self.peek() != ")":
            raise _Unsupported("unclosed group")
        self.at += 1
        return None, None if zero_width else need, zero_width

    def skip_class(self) -> None:
        self.at += 1
        if self.peek() == "^":
            self.at += 1
        if self.peek() == "]":
            self.at += 1
        while self.at < len(self.pattern) and self.peek() != "]":
            self.at += 2 if self.peek() == "\\" else 1
        if self.peek() != "]":
            raise _Unsupported("unclosed class")
        self.at += 1

    def quantifier(self) -> str:
        """``once`` (none), ``some`` (at least once, maybe more) or ``maybe`` (maybe never)."""
        c = self.peek()
        if c in ("?", "*"):
            self.at += 1
            found = "maybe"
        elif c == "+":
            self.at += 1
            found = "some"
        elif c == "{":
            end = self.pattern.find("}", self.at)
            inside = self.pattern[self.at + 1 : end] if end > 0 else ""
            low = inside.split(",")[0]
            if end < 0 or not low.isdigit():
                raise _Unsupported("{")
            self.at = end + 1
            found = "maybe" if int(low) == 0 else ("once" if inside == "1" else "some")
        else:
            return "once"
        if self.peek() in ("?", "+"):  # lazy or possessive
            self.at += 1
        return found


def _better(current: Need, other: Need) -> Need:
    """The more selective of two needs: the one whose shortest text is longer."""
    if other is None or not all(_usable(t) for t in other):
        return current
    if current is None or min(map(len, other)) > min(map(len, current)):
        return other
    return current


def _usable(text: str) -> bool:
    return len(text) >= MIN_LITERAL and all(
        c.isascii() or (c.lower() == c and c.upper() == c) for c in text
    )


def required_literals(pattern: str) -> frozenset[str] | None:
    """Texts (lower case) one of which every match of ``pattern`` contains, or None."""
    parser = _Parser(pattern)
    try:
        need = parser.alternation()
    except _Unsupported:
        return None
    if parser.at != len(pattern) or need is None or not all(_usable(t) for t in need):
        return None
    return frozenset(t.lower() for t in need)


def phrase_literals(patterns: Sequence[str]) -> tuple[str, ...] | None:
    """Texts one of which any match of any of ``patterns`` contains, or None when one of them
    needs nothing certain (its kind must then always be searched)."""
    found: set[str] = set()
    for pattern in patterns:
        need = required_literals(pattern)
        if need is None:
            return None
        found |= need
    return tuple(sorted(found))


@lru_cache(maxsize=512)
def _ascii_lower(text: str) -> str | None:
    return text.lower() if text.isascii() else None


def lacks_all(literals: tuple[str, ...] | None, text: str) -> bool:
    """True when ``text`` certainly matches none of the patterns ``literals`` came from."""
    if literals is None:
        return False
    lowered = _ascii_lower(text)
    return lowered is not None and not any(literal in lowered for literal in literals)


__all__ = ["MIN_LITERAL", "lacks_all", "phrase_literals", "required_literals"]
