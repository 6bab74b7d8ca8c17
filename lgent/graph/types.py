"""The type lattice: declared subtype edges, the implicit top type ``Any``, parametric covariance.

Rules (``a <: b`` reads "a is a subtype of b"):

* Every type is a subtype of itself and of ``Any``; ``Any`` is a subtype only of itself.
* Declared edges (child -> parent) form a DAG; ``A <: B`` when ``B`` is reachable from ``A``.
  A declaration that would close a cycle raises ``TypeCycleError`` naming it, and changes nothing.
* ``C[A1..An] <: D[B1..Bn]`` iff ``C <: D``, the arities match and each ``Ai <: Bi`` (covariance).
* A target without arguments, or whose arguments are all ``Any``, means "any instantiation":
  ``C[...] <: D`` iff ``C <: D``. So a bare constructor ``List`` equals ``List[Any]``;
  ``normalize`` writes both as ``List``.
* Names that are neither declared nor named as a supertype are *unknown*: ``is_subtype`` treats
  an unknown name as a subtype only of itself and ``Any`` (no error); ``require_known`` raises
  ``TypeLatticeError`` listing close known names.
* Giving a declared constructor the wrong number of arguments raises ``TypeLatticeError``.
* A name used as a supertype but never declared is known, with unknown arity.
* Supertypes must be plain names: ``subtype_of=["List[Document]"]`` is refused.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from lgent.errors import TypeCycleError, TypeLatticeError
from lgent.graph.digraph import Digraph
from lgent.typeexpr import ANY, TypeExpr, as_type, parse_type

_ANY_EXPR = TypeExpr(ANY)
_SUB_CACHE_LIMIT = 200_000


class TypeDeclaration(NamedTuple):
    """One declared type: its direct supertypes, its number of type parameters, and whether it is
    a primitive (see ``TypeLattice.is_primitive``)."""

    name: str
    subtype_of: tuple[str, ...] = ()
    params: int = 0
    primitive: bool = False


TypeLike = str | TypeExpr


def normalize(expr: TypeExpr) -> TypeExpr:
    """``expr`` with every argument list that is all ``Any`` dropped (``List[Any]`` -> ``List``)."""
    if not expr.args:
        return expr
    args = tuple(normalize(a) for a in expr.args)
    if all(a.is_any for a in args):
        return TypeExpr(expr.name)
    return TypeExpr(expr.name, args)


def _plain_name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeLatticeError(f"{what} must be a string, not {type(value).__name__}")
    expr = parse_type(value)
    if expr.args:
        raise TypeLatticeError(
            f"{what} {value!r} must be a plain name; parametric types are written"
            " in expressions, not declared"
        )
    return expr.name


class TypeLattice:
    """A DAG of subtype declarations with memoized reachability (see the module docstring)."""

    def __init__(self) -> None:
        self._graph = Digraph()  # child -> parent; each node's arity in ``params``
        self._declared: dict[str, TypeDeclaration] = {}
        self._version = 0
        self._up: dict[str, frozenset[str]] = {}
        self._down: dict[str, frozenset[str]] = {}
        self._sub_cache: dict[tuple[str, str], bool] = {}
        self._checked: dict[str, TypeExpr] = {}
        self._primitive: dict[str, bool] = {}
        self._flagged: frozenset[str] | None = None

    @classmethod
    def from_declarations(cls, declarations: Iterable[Sequence[Any]]) -> TypeLattice:
        """A lattice holding ``declarations`` (``(name, subtype_of, params)``, optionally with
        ``primitive`` fourth), in any order."""
        lattice = cls()
        lattice.add_types(declarations)
        return lattice

    # ----------------------------------------------------------------------------- changes

    @property
    def version(self) -> int:
        """Incremented on every change; caches built over this lattice compare it."""
        return self._version

    def add_type(self, name: str, subtype_of: Sequence[str] = (), params: int = 0) -> None:
        """Declare (or re-declare, replacing) ``name``. Raises ``TypeCycleError`` on a cycle."""
        self.add_types([(name, subtype_of, params)])

    def add_types(self, declarations: Iterable[Sequence[Any]]) -> None:
        """Declare several types at once (``(name, subtype_of, params[, primitive])``): all of
        them, or none if any is refused."""
        graph, declared = self._graph.copy(), dict(self._declared)
        try:
            for declaration in declarations:
                name, subtype_of, params, *rest = declaration
                self._declare(name, subtype_of, params, bool(rest and rest[0]))
        except BaseException:
            self._graph, self._declared = graph, declared
            raise
        finally:
            self._changed()

    def remove_type(self, name: str) -> None:
        """Withdraw the declaration of ``name``; if others still name it as a supertype it stays
        known (as an undeclared supertype). Raises ``TypeLatticeError`` if it is not declared."""
        if name not in self._declared:
            raise TypeLatticeError(f"type {name!r} is not declared{self._suggest(name)}")
        self._drop_declaration(name)
        if self._graph.in_degree(name) == 0:
            self._graph.remove_node(name)
        else:
            self._graph.params[name] = None
        self._changed()

    def _declare(self, name: object, subtype_of: object, params: object, primitive: bool) -> None:
        name = _plain_name(name, "type name")
        if name == ANY:
            raise TypeLatticeError("'Any' is the built-in top type and cannot be declared")
        if isinstance(subtype_of, str) or not isinstance(subtype_of, Iterable):
            raise TypeLatticeError(f"subtype_of of {name!r} must be a list of type names")
        parents = tuple(dict.fromkeys(_plain_name(p, f"supertype of {name!r}") for p in subtype_of))
        if not isinstance(params, int) or isinstance(params, bool) or params < 0:
            raise TypeLatticeError(f"params of {name!r} must be an integer >= 0, not {params!r}")
        for parent in sorted(parents):
            if parent == name:
                raise TypeCycleError([name])
            if parent in self._graph and name in self._graph:
                path = self._graph.shortest_path(parent, name)
                if path is not None:
                    raise TypeCycleError([name, *path[:-1]])
        if name in self._declared:
            self._drop_declaration(name)
        self._graph.add_node(name, params)
        for parent in parents:
            if parent == ANY:
                continue
            if parent not in self._graph:
                self._graph.add_node(parent, None)
            self._graph.add_edge(name, parent)
        self._declared[name] = TypeDeclaration(name, parents, params, primitive)

    def _drop_declaration(self, name: str) -> None:
        parents = self._graph.successors(name)
        for parent in parents:
            self._graph.remove_edge(name, parent)
        for parent in parents:
            if parent not in self._declared and self._graph.in_degree(parent) == 0:
                self._graph.remove_node(parent)
        del self._declared[name]

    def _changed(self) -> None:
        self._version += 1
        self._up.clear()
        self._down.clear()
        self._sub_cache.clear()
        self._checked.clear()
        self._primitive.clear()
        self._flagged = None

    # ----------------------------------------------------------------------------- queries

    def declarations(self) -> list[TypeDeclaration]:
        """The explicit declarations, sorted by name (feed them to ``from_declarations``)."""
        return [self._declared[n] for n in sorted(self._declared)]

    def types(self) -> list[str]:
        """Every known type name (declared or named as a supertype), sorted; ``Any`` excluded."""
        return sorted(self._graph)

    def __len__(self) -> int:
        return len(self._graph)

    def known(self, t: TypeLike) -> bool:
        """True when every name in ``t`` is ``Any``, declared, or named as a supertype."""
        return all(n == ANY or n in self._graph for n in as_type(t).names())

    def is_primitive(self, t: TypeLike) -> bool:
        """True when ``t`` is a primitive: a name declared primitive or a subtype of one, or a
        constructor applied only to primitives (``List[json.string]``). Composition never chains
        two artifacts through a primitive: every tool taking a string would otherwise accept
        every tool's string output."""
        expr = as_type(t)
        if expr.args:
            return all(self.is_primitive(a) for a in expr.args)
        name = expr.name
        if name == ANY or name not in self._graph:
            return False
        found = self._primitive.get(name)
        if found is None:
            if self._flagged is None:
                self._flagged = frozenset(n for n, d in self._declared.items() if d.primitive)
            flagged = self._flagged
            found = bool(flagged) and (
                name in flagged or not flagged.isdisjoint(self._supers(name))
            )
            self._primitive[name] = found
        return found

    def arity(self, name: str) -> int | None:
        """Declared number of type parameters of ``name``; None if undeclared."""
        decl = self._declared.get(name)
        return decl.params if decl is not None else None

    def check(self, t: TypeLike) -> TypeExpr:
        """``t`` parsed; raises ``TypeLatticeError`` if a declared constructor gets the wrong
        number of arguments. Unknown names pass."""
        if isinstance(t, str):
            found = self._checked.get(t)
            if found is None:
                found = parse_type(t)
                self._check(found, found)
                if len(self._checked) >= _SUB_CACHE_LIMIT:
                    self._checked.clear()
                self._checked[t] = found
            return found
        self._check(t, t)
        return t

    def _check(self, expr: TypeExpr, whole: TypeExpr) -> None:
        if expr.args:
            if expr.name == ANY:
                raise TypeLatticeError(f"'Any' takes no type arguments, in {str(whole)!r}")
            want = self.arity(expr.name)
            if want is not None and want != len(expr.args):
                raise TypeLatticeError(
                    f"{expr.name!r} takes {want} type argument{'s' if want != 1 else ''},"
                    f" got {len(expr.args)} in {str(whole)!r}"
                )
            for arg in expr.args:
                self._check(arg, whole)

    def require_known(self, t: TypeLike) -> TypeExpr:
        """``t`` parsed and checked; raises ``TypeLatticeError`` naming each unknown name and the
        known names closest to it."""
        expr = self.check(t)
        unknown = sorted(n for n in expr.names() if n != ANY and n not in self._graph)
        if unknown:
            parts = [f"{n!r}{self._suggest(n)}" for n in unknown]
            raise TypeLatticeError(f"unknown type in {str(expr)!r}: " + "; ".join(parts))
        return expr

    def _suggest(self, name: str) -> str:
        close = difflib.get_close_matches(name, [*self._graph, ANY], n=3, cutoff=0.6)
        return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""

    def _supers(self, name: str) -> frozenset[str]:
        found = self._up.get(name)
        if found is None:
            names = self._graph.reachable(name, forward=True) if name in self._graph else set()
            found = self._up[name] = frozenset(names)
        return found

    def _subs(self, name: str) -> frozenset[str]:
        found = self._down.get(name)
        if found is None:
            names = self._graph.reachable(name, forward=False) if name in self._graph else set()
            found = self._down[name] = frozenset(names)
        return found

    def is_subtype(self, a: TypeLike, b: TypeLike) -> bool:
        """True when ``a <: b``. Raises ``TypeLatticeError`` on malformed text or a wrong arity."""
        if isinstance(a, str) and isinstance(b, str):
            key = (a, b)
            hit = self._sub_cache.get(key)
            if hit is not None:
                return hit
            result = self._sub(self.check(a), self.check(b))
            if len(self._sub_cache) >= _SUB_CACHE_LIMIT:
                self._sub_cache.clear()
            self._sub_cache[key] = result
            return result
        return self._sub(self.check(a), self.check(b))

    def _sub(self, a: TypeExpr, b: TypeExpr) -> bool:
        if b.is_any or a == b:
            return True
        if a.name == ANY:
            return False
        if a.name != b.name and b.name not in self._supers(a.name):
            return False
        if all(arg.is_any for arg in b.args):  # also true for a bare b
            return True
        if len(a.args) != len(b.args):  # a bare a means all-Any arguments: too general for b
            return False
        return all(self._sub(x, y) for x, y in zip(a.args, b.args, strict=True))

    def supertypes(self, t: TypeLike) -> list[str]:
        """Every supertype of ``t`` except itself, in canonical form, sorted, ``Any`` last.

        For a parametric ``t`` this includes every covariant instantiation: for ``List[PDF]``
        with ``PDF <: Document`` and ``List <: Sequence`` that is ``List``, ``List[Document]``,
        ``Sequence``, ``Sequence[Document]``, ``Sequence[PDF]`` and ``Any``.
        """
        expr = normalize(self.check(t))
        if expr.is_any:
            return []
        found = self._super_strings(expr)
        found.discard(str(expr))
        found.discard(ANY)
        return [*sorted(found), ANY]

    def _super_strings(self, expr: TypeExpr) -> set[str]:
        supers = self._supers(expr.name)
        found = set(supers) | {expr.name, ANY}
        if expr.args:
            n = len(expr.args)
            ctors = [d for d in sorted(supers | {expr.name}) if self.arity(d) in (n, None)]
            choices = [sorted(self._super_strings(a) | {str(a)}) for a in expr.args]
            for ctor in ctors:
                for combo in itertools.product(*choices):
                    if any(c != ANY for c in combo):
                        found.add(f"{ctor}[{', '.join(combo)}]")
        return found

    def subtypes(self, t: TypeLike) -> list[str]:
        """Known type names that are proper subtypes of ``t``, sorted. For a parametric ``t`` with
        a non-``Any`` argument this is empty (a bare constructor means ``C[Any]``)."""
        expr = normalize(self.check(t))
        if expr.is_any:
            return self.types()
        if expr.args:
            return []
        return sorted(self._subs(expr.name))


__all__ = ["TypeDeclaration", "TypeLattice", "normalize"]
