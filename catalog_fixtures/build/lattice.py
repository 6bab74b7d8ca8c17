"""A small, independent model of the type lattice and type-driven composition.

Subtyping: reflexive, transitive over declared ``subtype_of`` edges, everything is a subtype of
``Any``, and generic constructors are covariant (``List[PDF]`` <: ``List[Document]``).
"""

from __future__ import annotations

import re
from functools import lru_cache

TYPE_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*(?:\[(.*)\])?\s*$")


def parse_type(text: str) -> tuple[str, tuple]:
    """'List[PDF]' -> ('List', (('PDF', ()),)). Raises ValueError on malformed names."""
    m = TYPE_RE.match(text)
    if not m:
        raise ValueError(f"malformed type {text!r}")
    head, inner = m.group(1), m.group(2)
    if inner is None:
        return head, ()
    args, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
        else:
            cur += ch
    args.append(cur)
    return head, tuple(parse_type(a) for a in args)


class Lattice:
    def __init__(self, decls: list[dict]):
        self.parents: dict[str, list[str]] = {}
        self.params: dict[str, int] = {}
        for d in decls:
            self.parents[d["type"]] = list(d.get("subtype_of", []))
            self.params[d["type"]] = int(d.get("params", 0))
        self._anc_cache: dict[str, frozenset] = {}

    def ancestors(self, name: str) -> frozenset:
        """All supertypes of a plain type name, itself included."""
        if name in self._anc_cache:
            return self._anc_cache[name]
        seen, stack = {name}, [name]
        while stack:
            for p in self.parents.get(stack.pop(), []):
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        self._anc_cache[name] = frozenset(seen)
        return self._anc_cache[name]

    def undeclared(self, text: str) -> list[str]:
        """Problems with a type expression: unknown names, wrong arity."""
        try:
            head, args = parse_type(text)
        except ValueError as err:
            return [str(err)]
        return self._check(head, args)

    def _check(self, head: str, args: tuple) -> list[str]:
        if head == "Any" and not args:
            return []
        if head not in self.params:
            return [f"undeclared type {head!r}"]
        probs = []
        if self.params[head] != len(args):
            probs.append(f"{head} takes {self.params[head]} parameter(s), got {len(args)}")
        for h, a in args:
            probs += self._check(h, a)
        return probs

    def is_subtype(self, sub: str, sup: str) -> bool:
        return self._sub(parse_type(sub), parse_type(sup))

    def _sub(self, a: tuple, b: tuple) -> bool:
        (ha, aa), (hb, ab) = a, b
        if hb == "Any" and not ab:
            return True
        if aa or ab:
            return ha == hb and len(aa) == len(ab) and all(self._sub(x, y) for x, y in zip(aa, ab))
        return hb in self.ancestors(ha)

    def find_cycle(self) -> list[str] | None:
        color: dict[str, int] = {}
        path: list[str] = []

        def visit(n: str) -> list[str] | None:
            color[n] = 1
            path.append(n)
            for p in self.parents.get(n, []):
                if color.get(p) == 1:
                    return path[path.index(p):] + [p]
                if color.get(p) is None:
                    found = visit(p)
                    if found:
                        return found
            color[n] = 2
            path.pop()
            return None

        for n in self.parents:
            if n not in color:
                found = visit(n)
                if found:
                    return found
        return None


def compatible(lat: Lattice, entries, source: str | None, target: str | None):
    """Entries whose input accepts ``source`` and whose output satisfies ``target``."""
    out = []
    for e in entries:
        i, o = e.get("input_type"), e.get("output_type")
        if source is not None and (i is None or not lat.is_subtype(source, i)):
            continue
        if target is not None and (o is None or not lat.is_subtype(o, target)):
            continue
        out.append(e)
    return out


def paths(lat: Lattice, entries, source: str, target: str, max_len: int = 3):
    """All simple artifact chains (no repeated artifact) of length <= max_len from source to target."""
    typed = [e for e in entries if e.get("input_type") and e.get("output_type")]
    found = []

    def extend(chain, current):
        if len(chain) >= max_len:
            return
        for e in typed:
            if e in chain or not lat.is_subtype(current, e["input_type"]):
                continue
            new = chain + [e]
            if lat.is_subtype(e["output_type"], target):
                found.append(new)  # a chain ends where the target is reached
            else:
                extend(new, e["output_type"])

    extend([], source)
    return found
