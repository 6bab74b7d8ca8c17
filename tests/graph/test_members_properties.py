"""CompositionIndex.members against brute-force enumeration of every pipeline."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.graph import paths
from lgent.graph.composition import CompositionIndex
from lgent.graph.signatures import CompositionPath, Signature
from lgent.graph.types import TypeLattice
from tests.examples import examples
from tests.graph.test_compose_properties import (
    QUERY_TYPES,
    TARGET_TYPES,
    Case,
    brute_paths,
    cases,
)


def _key(item: tuple[str, CompositionPath]) -> tuple[int, float, str]:
    artifact, path = item
    return len(path), -path.health, artifact


def _first_through(
    paths: list[CompositionPath], artifacts: list[Signature]
) -> list[tuple[str, CompositionPath]]:
    """Each artifact with the first path (in find_paths order) that goes through it."""
    found = []
    for sig in artifacts:
        through = [p for p in paths if sig.id in p.ids]
        if through:
            found.append((sig.id, through[0]))
    return sorted(found, key=_key)


def brute_members(
    case: Case, source: str, target: str, max_length: int, include_unusable: bool
) -> list[tuple[str, CompositionPath]]:
    if include_unusable:
        return _first_through(brute_paths(case, source, target, max_length, True), case.sigs)
    usable = [s for s in case.sigs if s.usable]
    found = _first_through(brute_paths(case, source, target, max_length, False), usable)
    unusable: list[tuple[str, CompositionPath]] = []
    for sig in case.sigs:
        if not sig.usable:  # its pipelines: it, and usable artifacts around it
            alone = Case(case.lattice, [*usable, replace(sig, usable=True)])
            paths = brute_paths(alone, source, target, max_length, False)
            unusable += _first_through(paths, [sig])
    return found + sorted(unusable, key=_key)


@settings(max_examples=examples(300), deadline=None)
@given(
    cases(),
    st.sampled_from(QUERY_TYPES),
    st.sampled_from(TARGET_TYPES),
    st.integers(1, 4),
    st.booleans(),
)
def test_members_match_brute_force(
    case: Case, source: str, target: str, max_length: int, include_unusable: bool
) -> None:
    index = CompositionIndex(case.lattice, case.sigs)
    expected = brute_members(case, source, target, max_length, include_unusable)
    found = list(
        paths.members(index, source, target, max_length, include_unusable=include_unusable)
    )
    assert found == expected


DENSE = TypeLattice.from_declarations([("T0", [], 0), ("T1", ["T0"], 0), ("T2", [], 0)])


@st.composite
def dense_cases(draw: st.DrawFn) -> Case:
    """Few types, many artifacts: cycles, shared steps and ties are the rule."""
    one = st.builds(
        Signature,
        id=st.sampled_from([f"a{i}" for i in range(12)]),
        input_type=st.sampled_from(["T0", "T1", "T2"]),
        output_type=st.sampled_from(["T0", "T1", "T2"]),
        usable=st.sampled_from([True, True, False]),
        health=st.sampled_from([0.2, 0.5, 0.5, 0.9]),
    )
    sigs = draw(st.lists(one, min_size=4, max_size=10, unique_by=lambda s: s.id))
    return Case(DENSE, sigs)


@settings(max_examples=examples(300), deadline=None)
@given(
    dense_cases(),
    st.sampled_from(["T0", "T1", "T2"]),
    st.sampled_from(["T0", "T1", "T2"]),
    st.integers(1, 5),
    st.booleans(),
)
def test_members_match_brute_force_when_pipelines_cross(
    case: Case, source: str, target: str, max_length: int, include_unusable: bool
) -> None:
    index = CompositionIndex(case.lattice, case.sigs)
    expected = brute_members(case, source, target, max_length, include_unusable)
    found = list(
        paths.members(index, source, target, max_length, include_unusable=include_unusable)
    )
    assert found == expected


def test_a_member_whose_best_routes_collide_still_gets_a_pipeline() -> None:
    # b is the only healthy way from S to X and also the best way on after `a`; the witness
    # must use b once and the weaker b2 for the other end
    lattice = TypeLattice.from_declarations([(t, [], 0) for t in ("S", "X", "T", "Y", "Z", "W")])
    sigs = [
        Signature("b", "S", "X", health=0.9),
        Signature("b2", "S", "X", health=0.5),
        Signature("a", "X", "S", health=0.8),
        Signature("d", "X", "T", health=0.9),
        *(Signature(i, s, t, health=0.9) for i, s, t in [("y", "S", "Y"), ("w", "Z", "W")]),
        Signature("c", "Y", "Z", health=0.7),
        Signature("t", "W", "T", health=0.9),
    ]
    index = CompositionIndex(lattice, sigs)
    members = dict(paths.members(index, "S", "T", 4))
    assert members["a"] == CompositionPath(("b", "a", "b2", "d"), ("S", "X", "S", "X", "T"), 0.5)
    # ranked by the pipeline found (0.5), not by the tables' bound for `a` (0.8)
    assert list(members) == ["b", "d", "b2", "c", "t", "w", "y", "a"]


def test_a_member_with_no_pipeline_of_its_table_length_gets_a_longer_one() -> None:
    # `a` can only follow p, and p leads on from its output (S -> X -> T): at the 4 steps of the
    # tables p would repeat, so its pipeline takes 5, and the first in path order puts `a`
    # third, not right after the shortest route to it
    lattice = TypeLattice.from_declarations([(t, [], 0) for t in ("S", "X", "T", "Q")])
    sigs = [
        Signature("p", "S", "X", health=0.9),
        Signature("a", "X", "S", health=0.8),
        Signature("d", "X", "T", health=0.9),
        Signature("e", "S", "Q", health=0.9),
        Signature("f", "Q", "X", health=0.9),
        Signature("c", "T", "T", health=0.7),
    ]
    index = CompositionIndex(lattice, sigs)
    members = dict(paths.members(index, "S", "T", 5))
    assert members["a"] == CompositionPath(
        ("e", "f", "a", "p", "d"), ("S", "Q", "X", "S", "X", "T"), 0.8
    )
    assert list(members) == ["d", "p", "e", "f", "c", "a"]
