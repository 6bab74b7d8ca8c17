"""Path search and members with ``allowed`` (a reader's scope) equal the same search over a
catalog holding only the allowed artifacts: the bound tables, built over every artifact, stay
upper bounds, so branch and bound stays exact (brute force and a sub-catalog as oracles)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.graph import paths
from lgent.graph.composition import CompositionIndex
from lgent.graph.signatures import PathSearch
from tests.examples import examples
from tests.graph.test_compose_properties import (
    QUERY_TYPES,
    TARGET_TYPES,
    Case,
    brute_paths,
    cases,
)


@settings(max_examples=examples(200), deadline=None)
@given(
    cases(),
    st.sampled_from(QUERY_TYPES),
    st.sampled_from(TARGET_TYPES),
    st.integers(1, 4),
    st.sampled_from([1, 2, 3, 5, 8]),
    st.booleans(),
    st.data(),
)
def test_paths_through_allowed_artifacts_only_match_the_smaller_catalog(
    case: Case,
    source: str,
    target: str,
    max_length: int,
    k: int,
    include_unusable: bool,
    data: st.DataObject,
) -> None:
    ids = [s.id for s in case.sigs]
    kept = set(data.draw(st.lists(st.sampled_from(ids), unique=True)))
    smaller = Case(case.lattice, [s for s in case.sigs if s.id in kept])
    expected = brute_paths(smaller, source, target, max_length, include_unusable)
    index = CompositionIndex(case.lattice, case.sigs)
    search = PathSearch(source, target, max_length, k, include_unusable, kept.__contains__)
    assert paths.find_paths(index, search) == expected[:k]
    members = list(
        paths.members(
            index,
            source,
            target,
            max_length,
            include_unusable=include_unusable,
            allowed=kept.__contains__,
        )
    )
    alone = list(
        paths.members(
            CompositionIndex(case.lattice, smaller.sigs),
            source,
            target,
            max_length,
            include_unusable=include_unusable,
        )
    )
    assert members == alone
    assert all(set(path.ids) <= kept for _, path in members)
