"""find_paths / find_compatible against brute-force enumeration on small random catalogs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.graph import paths
from lgent.graph.composition import CompositionIndex
from lgent.graph.paths import compatible_among as find_compatible
from lgent.graph.signatures import CompositionPath, PathSearch, Signature
from lgent.graph.types import TypeLattice
from lgent.typeexpr import canonical
from tests.examples import examples


def find_paths(
    source: str,
    target: str,
    signatures: Iterable[Signature],
    lattice: TypeLattice,
    max_length: int = 5,
    k: int = 5,
    *,
    include_unusable: bool = False,
) -> list[CompositionPath]:
    """``paths.paths_among`` with the search spelled out as arguments."""
    search = PathSearch(source, target, max_length, k, include_unusable)
    return paths.paths_among(search, signatures, lattice)


NAMES = ["T0", "T1", "T2", "T3", "T4"]
TYPES = [*NAMES, "L[T0]", "L[T2]", "L", "Any", "Zed"]
SIG_TYPES = [*NAMES, *NAMES, *TYPES, "Any", None]  # plain names and Any more likely
QUERY_TYPES = [*NAMES, *TYPES]
TARGET_TYPES = [*NAMES, *TYPES, "Any", "Any"]


@dataclass
class Case:
    lattice: TypeLattice
    sigs: list[Signature]


@st.composite
def lattices(draw: st.DrawFn) -> TypeLattice:
    decls: list[tuple[str, list[str], int]] = [("L", [], 1)]
    for i, name in enumerate(NAMES):
        parents = draw(st.lists(st.sampled_from(NAMES[:i]), max_size=3, unique=True)) if i else []
        decls.append((name, parents, 0))
    return TypeLattice.from_declarations(decls)


def signatures(max_size: int, min_size: int = 0) -> st.SearchStrategy[list[Signature]]:
    one = st.builds(
        Signature,
        id=st.sampled_from([f"a{i}" for i in range(10)]),
        input_type=st.sampled_from(SIG_TYPES),
        output_type=st.sampled_from(SIG_TYPES),
        usable=st.sampled_from([True, True, True, False]),
        health=st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0.0, 1.0)),
    )
    return st.lists(one, min_size=min_size, max_size=max_size, unique_by=lambda s: s.id)


@st.composite
def cases(draw: st.DrawFn, max_size: int = 8) -> Case:
    return Case(draw(lattices()), draw(signatures(max_size, min_size=3)))


def brute_paths(
    case: Case, source: str, target: str, max_length: int, include_unusable: bool
) -> list[CompositionPath]:
    sub = case.lattice.is_subtype
    pool = [
        s for s in case.sigs if s.input_type and s.output_type and (include_unusable or s.usable)
    ]
    found: list[CompositionPath] = []

    def extend(current: str, chain: list[Signature]) -> None:
        if len(chain) == max_length:
            return
        for sig in pool:
            if sig in chain or not sub(current, sig.input_type or ""):
                continue
            now = [*chain, sig]
            out = sig.output_type or ""
            if sub(out, target):
                found.append(
                    CompositionPath(
                        tuple(s.id for s in now),
                        (canonical(source), *(canonical(s.output_type or "") for s in now)),
                        min(s.health for s in now),
                    )
                )
            extend(out, now)

    extend(source, [])
    return sorted(found, key=lambda p: (len(p.ids), -p.health, p.ids))


@settings(max_examples=examples(200), deadline=None)
@given(
    cases(),
    st.sampled_from(QUERY_TYPES),
    st.sampled_from(TARGET_TYPES),
    st.integers(1, 4),
    st.sampled_from([1, 1, 2, 3, 5, 8]),
    st.booleans(),
)
def test_find_paths_matches_brute_force(
    case: Case, source: str, target: str, max_length: int, k: int, include_unusable: bool
) -> None:
    expected = brute_paths(case, source, target, max_length, include_unusable)
    everything = find_paths(
        source,
        target,
        case.sigs,
        case.lattice,
        max_length,
        k=1000,
        include_unusable=include_unusable,
    )
    assert everything == expected
    first = find_paths(
        source,
        target,
        case.sigs,
        case.lattice,
        max_length,
        k,
        include_unusable=include_unusable,
    )
    assert first == expected[:k]


@settings(max_examples=examples(100), deadline=None)
@given(cases(), st.lists(st.tuples(st.booleans(), signatures(1)), max_size=6), st.data())
def test_incremental_index_matches_a_fresh_one(
    case: Case, changes: list[tuple[bool, list[Signature]]], data: st.DataObject
) -> None:
    index = CompositionIndex(case.lattice, case.sigs)
    current = {s.id: s for s in case.sigs}
    queries = [(s, t) for s in ("T4", "L[T2]", "Any") for t in ("T0", "Any", "L")]
    for remove, sigs in changes:
        for source, target in queries[:3]:
            paths.find_paths(
                index, PathSearch(source, target, max_length=3, k=3)
            )  # warm caches, then change
        for sig in sigs:
            if remove:
                index.remove(sig.id)
                current.pop(sig.id, None)
            else:
                index.update(sig)
                current[sig.id] = sig
    fresh = Case(case.lattice, list(current.values()))
    for source, target in queries:
        assert (
            paths.find_paths(index, PathSearch(source, target, max_length=3, k=50))
            == brute_paths(fresh, source, target, 3, False)[:50]
        )
    for sig in fresh.sigs:
        for direction in ("downstream", "upstream"):
            assert index.find_compatible(sig, direction) == find_compatible(
                sig, fresh.sigs, fresh.lattice, direction
            )
    sub = fresh.lattice.is_subtype
    for takes, gives in queries:
        fitting = index.fitting_ids(takes, gives)
        assert len(fitting) == len(set(fitting))
        assert set(fitting) == {
            s.id
            for s in fresh.sigs
            if s.input_type
            and s.output_type
            and sub(takes, s.input_type)
            and sub(s.output_type, gives)
        }


def rank(sigs: list[Signature]) -> list[Signature]:
    return sorted(sigs, key=lambda s: (-s.health, s.id))


@settings(max_examples=examples(100), deadline=None)
@given(cases(), st.booleans())
def test_find_compatible_matches_brute_force(case: Case, include_unusable: bool) -> None:
    sub = case.lattice.is_subtype
    for target in case.sigs:
        down = [
            s
            for s in case.sigs
            if s.id != target.id
            and (include_unusable or s.usable)
            and target.output_type
            and s.input_type
            and sub(target.output_type, s.input_type)
        ]
        up = [
            s
            for s in case.sigs
            if s.id != target.id
            and (include_unusable or s.usable)
            and target.input_type
            and s.output_type
            and sub(s.output_type, target.input_type)
        ]

        assert find_compatible(
            target, case.sigs, case.lattice, include_unusable=include_unusable
        ) == rank(down)
        assert find_compatible(
            target, case.sigs, case.lattice, "upstream", include_unusable=include_unusable
        ) == rank(up)


@settings(max_examples=examples(30), deadline=None)
@given(cases(), st.sampled_from(TYPES), st.sampled_from(TYPES))
def test_results_are_identical_across_runs_and_input_orders(
    case: Case, source: str, target: str
) -> None:
    first = find_paths(source, target, case.sigs, case.lattice, 4, 20)
    assert find_paths(source, target, case.sigs, case.lattice, 4, 20) == first
    assert find_paths(source, target, list(reversed(case.sigs)), case.lattice, 4, 20) == first
