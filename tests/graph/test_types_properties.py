"""Property tests of subtyping on generated DAG lattices (names and parametric expressions)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.errors import TypeCycleError
from lgent.graph.types import TypeLattice, normalize
from lgent.typeexpr import ANY, TypeExpr
from tests.examples import examples

POOL = ["A", "B", "C", "D", "E", "F", "G", "H"]


@dataclass
class Generated:
    lattice: TypeLattice
    parents: dict[str, list[str]]
    params: dict[str, int]


@st.composite
def lattices(draw: st.DrawFn) -> Generated:
    names = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=len(POOL), unique=True))
    parents: dict[str, list[str]] = {}
    params: dict[str, int] = {}
    for i, name in enumerate(names):  # parents only among earlier names: a DAG
        earlier = (
            st.lists(st.sampled_from(names[:i]), max_size=2, unique=True) if i else st.just([])
        )
        parents[name] = draw(earlier)
        params[name] = draw(st.sampled_from([0, 0, 0, 1, 2]))
    order = draw(st.permutations(names))
    lattice = TypeLattice.from_declarations((n, parents[n], params[n]) for n in order)
    return Generated(lattice, parents, params)


def exprs(gen: Generated, depth: int = 2) -> st.SearchStrategy[TypeExpr]:
    leaves = [TypeExpr(n) for n in gen.params] + [TypeExpr(ANY), TypeExpr("Zed")]
    base = st.sampled_from(leaves)
    if depth == 0:
        return base
    ctors = [n for n, p in gen.params.items() if p > 0]
    if not ctors:
        return base

    def apply(ctor: str) -> st.SearchStrategy[TypeExpr]:
        args = st.tuples(*[exprs(gen, depth - 1)] * gen.params[ctor])
        return args.map(lambda a: TypeExpr(ctor, a))

    applied = st.sampled_from(ctors).flatmap(apply)
    return st.one_of(base, applied)


def reachable(parents: dict[str, list[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for p in parents.get(stack.pop(), []):
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen


@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_reflexive_transitive_antisymmetric(data: st.DataObject) -> None:
    gen = data.draw(lattices())
    lattice = gen.lattice
    items = data.draw(st.lists(exprs(gen), min_size=3, max_size=8))
    for a in items:
        assert lattice.is_subtype(a, a)
        assert lattice.is_subtype(a, ANY)
    for a in items:
        for b in items:
            ab = lattice.is_subtype(a, b)
            if ab and lattice.is_subtype(b, a):
                assert normalize(a) == normalize(b), (a, b)
            if not ab:
                continue
            for c in items:
                if lattice.is_subtype(b, c):
                    assert lattice.is_subtype(a, c), (a, b, c)


@settings(max_examples=examples(150), deadline=None)
@given(lattices())
def test_names_agree_with_reachability(gen: Generated) -> None:
    lattice = gen.lattice
    for a in gen.parents:
        ups = reachable(gen.parents, a)
        assert lattice.supertypes(a) == [*sorted(ups), ANY]
        for b in gen.parents:
            assert lattice.is_subtype(a, b) == (a == b or b in ups)
        below = sorted(n for n in gen.parents if a in reachable(gen.parents, n))
        assert lattice.subtypes(a) == below


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_supertypes_are_supertypes(data: st.DataObject) -> None:
    gen = data.draw(lattices())
    expr = data.draw(exprs(gen))
    supers = gen.lattice.supertypes(expr)
    assert supers == [*sorted(supers[:-1]), ANY] or supers == []
    for s in supers:
        assert gen.lattice.is_subtype(expr, s)


@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_new_edge_is_added_or_its_cycle_is_named(data: st.DataObject) -> None:
    gen = data.draw(lattices())
    names = list(gen.parents)
    child = data.draw(st.sampled_from(names))
    parent = data.draw(st.sampled_from(names))
    before = gen.lattice.declarations()
    new_parents = [*gen.parents[child], parent]
    try:
        gen.lattice.add_type(child, new_parents, gen.params[child])
    except TypeCycleError as err:
        assert child == parent or child in reachable(gen.parents, parent)
        cycle = err.cycle
        assert cycle[0] == child
        edges = {**gen.parents, child: new_parents}
        for here, there in zip(cycle, [*cycle[1:], cycle[0]], strict=True):
            assert there in edges[here]
        assert gen.lattice.declarations() == before
    else:
        assert child != parent and child not in reachable(gen.parents, parent)
        assert gen.lattice.is_subtype(child, parent)


@settings(max_examples=examples(30), deadline=None)
@given(lattices(), st.data())
def test_results_repeat_exactly(gen: Generated, data: st.DataObject) -> None:
    items = data.draw(st.lists(exprs(gen), min_size=1, max_size=5))
    again = TypeLattice.from_declarations(gen.lattice.declarations())
    for a in items:
        assert gen.lattice.supertypes(a) == again.supertypes(a)
        for b in items:
            assert gen.lattice.is_subtype(a, b) == again.is_subtype(a, b)
