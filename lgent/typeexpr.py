"""Type expressions: ``PDF``, ``List[Document]``, ``Dict[str, List[PDF]]``.

Grammar (whitespace allowed around every token)::

    expr := NAME ( "[" expr ( "," expr )* "]" )?
    NAME := [A-Za-z_] [A-Za-z0-9_.-]*

Names are case-sensitive. ``str(expr)`` is the canonical form: no spaces inside brackets, one
space after each comma (``Dict[str, Document]``). Malformed text raises ``TypeLatticeError``
naming the text, the position, what was expected and what was found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lgent.errors import TypeLatticeError
from lgent.limits import MAX_TYPE_NAME_LENGTH

ANY = "Any"
"""The implicit top type: every type is a subtype of it."""

MAX_NESTING = 16
"""Deepest bracket nesting accepted (``List[List[...]]``)."""

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
"""A type name, wherever one appears inside a type expression."""


@dataclass(frozen=True, slots=True)
class TypeExpr:
    """A type name applied to zero or more argument types."""

    name: str
    args: tuple[TypeExpr, ...] = ()

    def __reduce__(self) -> tuple[type[TypeExpr], tuple[str, tuple[TypeExpr, ...]]]:
        """Pickled as a call of the class: a graph image holds thousands, and the slotted
        dataclass's own state functions took a third of reading one back."""
        return (TypeExpr, (self.name, self.args))

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}[{', '.join(str(a) for a in self.args)}]"

    @property
    def is_any(self) -> bool:
        """True for the bare top type ``Any``."""
        return self.name == ANY and not self.args

    def names(self) -> frozenset[str]:
        """Every type name mentioned, at any depth."""
        out = {self.name}
        for arg in self.args:
            out |= arg.names()
        return frozenset(out)


def _error(text: str, pos: int, expected: str) -> TypeLatticeError:
    found = repr(text[pos]) if pos < len(text) else "end of text"
    return TypeLatticeError(
        f"malformed type expression {text!r} at position {pos}: expected {expected}, found {found}"
    )


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        self.skip_ws()
        found = NAME_RE.match(self.text, self.pos)
        if found is None:
            raise _error(self.text, self.pos, "a type name")
        self.pos = found.end()
        return found.group()

    def expr(self, depth: int) -> TypeExpr:
        name = self.name()
        self.skip_ws()
        if self.peek() != "[":
            return TypeExpr(name)
        if depth >= MAX_NESTING:
            raise TypeLatticeError(
                f"type expression {self.text!r} nests deeper than {MAX_NESTING} levels"
            )
        self.pos += 1
        args = [self.expr(depth + 1)]
        while True:
            self.skip_ws()
            char = self.peek()
            if char == ",":
                self.pos += 1
                args.append(self.expr(depth + 1))
            elif char == "]":
                self.pos += 1
                return TypeExpr(name, tuple(args))
            else:
                raise _error(self.text, self.pos, "',' or ']'")


def parse_type(text: str) -> TypeExpr:
    """Parse ``text`` into a ``TypeExpr``; raise ``TypeLatticeError`` if it is malformed."""
    if not isinstance(text, str):
        raise TypeLatticeError(f"a type expression must be a string, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=1 << 16)
def _parse(text: str) -> TypeExpr:
    """(Cached: an imported catalog brings thousands of type names, each parsed many times.)"""
    if len(text) > MAX_TYPE_NAME_LENGTH:
        raise TypeLatticeError(
            f"type expression of {len(text)} characters is longer than {MAX_TYPE_NAME_LENGTH}"
        )
    if NAME_RE.fullmatch(text):  # a plain name, most types
        return TypeExpr(text)
    parser = _Parser(text)
    expr = parser.expr(0)
    parser.skip_ws()
    if parser.pos != len(text):
        raise _error(text, parser.pos, "'[' or end of text" if not expr.args else "end of text")
    return expr


def as_type(value: str | TypeExpr) -> TypeExpr:
    """``value`` itself if it is a ``TypeExpr``, else ``value`` parsed."""
    return value if isinstance(value, TypeExpr) else parse_type(value)


def canonical(text: str | TypeExpr) -> str:
    """The canonical string form of a type expression (``List[ PDF ]`` -> ``List[PDF]``)."""
    return str(as_type(text))


def type_names(text: str) -> list[str]:
    """Every type name inside a type expression, in order: ``List[PDF]`` -> List, PDF.

    Tolerant: it reads names out of malformed text too (for warnings about such text)."""
    return NAME_RE.findall(text)


def validate_type(text: str, *, plain: bool = False) -> str:
    """``text`` if it is a well-formed type expression (a bare name when ``plain``), else
    ``ValueError`` saying what is wrong (for model validators)."""
    try:
        expr = parse_type(text)
    except TypeLatticeError as err:
        raise ValueError(str(err)) from None
    if plain and expr.args:
        raise ValueError(
            f"{text!r} is not a plain type name (parametric types are not allowed here)"
        )
    return text


__all__ = [
    "ANY",
    "MAX_NESTING",
    "NAME_RE",
    "TypeExpr",
    "as_type",
    "canonical",
    "parse_type",
    "type_names",
    "validate_type",
]
