"""Syntax tree of a keyword query: small frozen nodes that know their place in the text.

Every node carries ``start``/``end``: character offsets into the original query (``end`` is
exclusive), so errors, explanations and highlights can point back at what the user typed.

Shape guarantees the parser gives (the compiler may rely on them):

* ``And``/``Or`` have at least two children and never a direct child of their own kind
  (they are flattened; an ``Or`` child holding ``Required`` clauses is kept whole).
* A ``Not`` only ever appears as a direct child of an ``And`` that also has a positive
  (non-``Not``) child; a query of only negations gets a ``MatchAll`` as that child.
* ``Required`` wraps a positive node (never a ``Not`` or another ``Required``).
* Field names are canonical (see ``FIELDS``) or ``None`` for "the default fields".

``node.dump()`` gives a compact one-line form for tests and logs, e.g.
``And(Term('pdf'), Or(Term(name:'parser'), Phrase('x y')))``; ``dump(spans=True)`` appends
``@start:end`` to every node. ``node.to_dict()`` gives a JSON-ready form.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass
from typing import Any, TypeAlias


class _NodeBase:
    """Behaviour shared by all nodes; the data lives in the dataclass subclasses."""

    __slots__ = ()

    def dump(self, *, spans: bool = False) -> str:
        """Compact one-line form, e.g. ``Or(Term('a'), Not(Phrase(name:'b c')))``."""
        return dump(self, spans=spans)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready nested dicts: ``{"type": "term", "text": ..., "start": ..., ...}``."""
        return to_dict(self)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Term(_NodeBase):
    """A bare word, searched through the analyzer of its field(s)."""

    text: str
    field: str | None = None
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Phrase(_NodeBase):
    """A quoted phrase (escapes already resolved); its words must appear in order."""

    text: str
    field: str | None = None
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Wildcard(_NodeBase):
    """A term with ``*`` (any run of characters) and/or ``?`` (one character)."""

    pattern: str
    field: str | None = None
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Fuzzy(_NodeBase):
    """A term matched within ``distance`` edits (0, 1 or 2)."""

    text: str
    distance: int = 1
    field: str | None = None
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class And(_NodeBase):
    """Every positive child must match; ``Not`` children exclude."""

    children: tuple[Node, ...]
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Or(_NodeBase):
    """At least one child must match; if some children are ``Required``, all of those must
    match and the others only add to the score."""

    children: tuple[Node, ...]
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Not(_NodeBase):
    """Excludes what ``child`` matches from its parent ``And``."""

    child: Node
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Required(_NodeBase):
    """``+child``: must match. Same as a plain child inside ``And``; matters inside ``Or``."""

    child: Node
    _: KW_ONLY
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class MatchAll(_NodeBase):
    """Every entry: the query ``*``, and the positive side of a query of only negations."""

    _: KW_ONLY
    start: int = 0
    end: int = 0


Node: TypeAlias = Term | Phrase | Wildcard | Fuzzy | And | Or | Not | Required | MatchAll
Leaf: TypeAlias = Term | Phrase | Wildcard | Fuzzy


def children(node: Node) -> tuple[Node, ...]:
    """The direct children of ``node`` (empty for leaves and ``MatchAll``)."""
    if isinstance(node, And | Or):
        return node.children
    if isinstance(node, Not | Required):
        return (node.child,)
    return ()


def iter_nodes(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children, left to right (no recursion)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def dump(node: Node, *, spans: bool = False) -> str:
    """Compact one-line form of ``node``; see the module docstring."""
    name = type(node).__name__
    if isinstance(node, And | Or):
        inner = ", ".join(dump(child, spans=spans) for child in node.children)
    elif isinstance(node, Not | Required):
        inner = dump(node.child, spans=spans)
    elif isinstance(node, MatchAll):
        inner = ""
    else:
        value = node.pattern if isinstance(node, Wildcard) else node.text
        inner = (f"{node.field}:" if node.field else "") + repr(value)
        if isinstance(node, Fuzzy):
            inner += f", {node.distance}"
    text = f"{name}({inner})"
    return f"{text}@{node.start}:{node.end}" if spans else text


def to_dict(node: Node) -> dict[str, Any]:
    """JSON-ready nested dicts; ``type`` is the node kind in lower case (or ``match_all``)."""
    kind = "match_all" if isinstance(node, MatchAll) else type(node).__name__.lower()
    out: dict[str, Any] = {"type": kind}
    if isinstance(node, And | Or):
        out["children"] = [to_dict(child) for child in node.children]
    elif isinstance(node, Not | Required):
        out["child"] = to_dict(node.child)
    elif isinstance(node, Wildcard):
        out["pattern"] = node.pattern
        out["field"] = node.field
    elif isinstance(node, Fuzzy):
        out["text"] = node.text
        out["distance"] = node.distance
        out["field"] = node.field
    elif isinstance(node, Term | Phrase):
        out["text"] = node.text
        out["field"] = node.field
    out["start"] = node.start
    out["end"] = node.end
    return out
