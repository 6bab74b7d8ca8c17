"""Composition on small hand-made catalogs: compatibility, ranked paths, incremental updates."""

from __future__ import annotations

import pickle
from collections.abc import Iterable

import pytest

from lgent.errors import NotFoundError, TypeLatticeError, ValidationError
from lgent.graph import paths
from lgent.graph.composition import CompositionIndex
from lgent.graph.paths import compatible_among as find_compatible
from lgent.graph.signatures import CompositionPath, PathSearch, Signature
from lgent.graph.types import TypeLattice


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


@pytest.fixture
def lattice() -> TypeLattice:
    return TypeLattice.from_declarations(
        [
            ("Document", [], 0),
            ("PDF", ["Document"], 0),
            ("FinancialPDF", ["PDF"], 0),
            ("HTML", ["Document"], 0),
            ("Text", [], 0),
            ("Summary", ["Text"], 0),
            ("List", [], 1),
        ]
    )


SIGS = [
    Signature("pdf2text", "PDF", "Text", True, 0.9),
    Signature("doc2text", "Document", "Text", True, 0.8),
    Signature("text2sum", "Text", "Summary", True, 0.7),
    Signature("old-summarizer", "Text", "Summary", False, 0.99),
    Signature("html2pdf", "HTML", "PDF", True, 0.95),
    Signature("pdf2sum", "PDF", "Summary", True, 0.3),
    Signature("sink", "Summary", None, True, 0.5),
    Signature("source", None, "HTML", True, 0.5),
    Signature("batch", "List[PDF]", "List[Summary]", True, 0.6),
]


def ids(found: list[Signature]) -> list[str]:
    return [s.id for s in found]


def test_downstream_accepts_supertype_inputs(lattice: TypeLattice) -> None:
    html2pdf = SIGS[4]
    assert ids(find_compatible(html2pdf, SIGS, lattice)) == ["pdf2text", "doc2text", "pdf2sum"]
    assert ids(find_compatible(html2pdf, SIGS, lattice, include_unusable=True)) == [
        "pdf2text",
        "doc2text",
        "pdf2sum",
    ]
    text2sum = SIGS[2]  # Summary <: Text, so text processors follow it too
    assert ids(find_compatible(text2sum, SIGS, lattice)) == ["sink"]
    assert ids(find_compatible(text2sum, SIGS, lattice, include_unusable=True)) == [
        "old-summarizer",
        "sink",
    ]


def test_upstream_outputs_that_fit(lattice: TypeLattice) -> None:
    text2sum = SIGS[2]
    assert ids(find_compatible(text2sum, SIGS, lattice, "upstream")) == [
        "pdf2text",
        "doc2text",
        "pdf2sum",
    ]
    assert ids(find_compatible(SIGS[0], SIGS, lattice, "upstream")) == ["html2pdf"]
    assert find_compatible(SIGS[7], SIGS, lattice, "upstream") == []  # no input
    assert find_compatible(SIGS[6], SIGS, lattice, "downstream") == []  # no output
    assert ids(find_compatible(SIGS[0], SIGS, lattice, "upstream", limit=1)) == ["html2pdf"]


def test_compatible_parametric(lattice: TypeLattice) -> None:
    target = Signature("listing", None, "List[FinancialPDF]")
    assert ids(find_compatible(target, SIGS, lattice)) == ["batch"]
    target = Signature("wants", "List[Text]", None)
    assert ids(find_compatible(target, SIGS, lattice, "upstream")) == ["batch"]


def test_compatible_excludes_the_target_itself(lattice: TypeLattice) -> None:
    loop = Signature("normalize", "Text", "Text", True, 1.0)
    assert "normalize" not in ids(find_compatible(loop, [*SIGS, loop], lattice))


def test_paths_shortest_first_then_health_then_ids(lattice: TypeLattice) -> None:
    found = find_paths("PDF", "Summary", SIGS, lattice, k=10)
    assert found == [
        CompositionPath(("pdf2sum",), ("PDF", "Summary"), 0.3),
        CompositionPath(("doc2text", "text2sum"), ("PDF", "Text", "Summary"), 0.7),
        CompositionPath(("pdf2text", "text2sum"), ("PDF", "Text", "Summary"), 0.7),
        CompositionPath(("pdf2sum", "text2sum"), ("PDF", "Summary", "Summary"), 0.3),
    ]
    assert found[1].health == min(0.8, 0.7)  # weakest link
    assert len(found[1]) == 2


def test_paths_k_and_max_length(lattice: TypeLattice) -> None:
    assert [p.ids for p in find_paths("PDF", "Summary", SIGS, lattice, k=2)] == [
        ("pdf2sum",),
        ("doc2text", "text2sum"),
    ]
    assert [p.ids for p in find_paths("PDF", "Summary", SIGS, lattice, max_length=1)] == [
        ("pdf2sum",),
    ]
    assert find_paths("HTML", "Summary", SIGS, lattice, max_length=1) == []
    three = find_paths("HTML", "Summary", SIGS, lattice, max_length=3, k=3)
    assert [p.ids for p in three] == [
        ("doc2text", "text2sum"),
        ("html2pdf", "pdf2sum"),
        ("html2pdf", "doc2text", "text2sum"),
    ]


def test_paths_source_subtype_and_target_supertype(lattice: TypeLattice) -> None:
    found = find_paths("FinancialPDF", "Text", SIGS, lattice, max_length=1, k=10)
    assert [p.ids for p in found] == [("pdf2text",), ("doc2text",), ("pdf2sum",)]
    assert found[2].types == ("FinancialPDF", "Summary")


def test_unusable_artifacts_only_when_asked(lattice: TypeLattice) -> None:
    plain = find_paths("Text", "Summary", SIGS, lattice, max_length=1)
    assert [p.ids for p in plain] == [("text2sum",)]
    everything = find_paths("Text", "Summary", SIGS, lattice, max_length=1, include_unusable=True)
    assert [p.ids for p in everything] == [("old-summarizer",), ("text2sum",)]


def test_no_artifact_repeats_in_a_path(lattice: TypeLattice) -> None:
    loop = [Signature("normalize", "Text", "Text", True, 1.0)]
    assert [p.ids for p in find_paths("Text", "Text", loop, lattice, k=5)] == [("normalize",)]


def test_parametric_paths(lattice: TypeLattice) -> None:
    found = find_paths("List[FinancialPDF]", "List[Text]", SIGS, lattice)
    assert found == [CompositionPath(("batch",), ("List[FinancialPDF]", "List[Summary]"), 0.6)]
    assert find_paths("List[HTML]", "List[Text]", SIGS, lattice) == []


def test_query_types_are_checked(lattice: TypeLattice) -> None:
    with pytest.raises(TypeLatticeError, match="position"):
        find_paths("PDF[", "Text", SIGS, lattice)
    with pytest.raises(TypeLatticeError, match="takes 1 type argument"):
        find_paths("List[PDF, PDF]", "Text", SIGS, lattice)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"max_length": 0}, "max_length"), ({"max_length": 11}, "max_length"), ({"k": 0}, "k")],
)
def test_bad_search_parameters(lattice: TypeLattice, kwargs: dict[str, int], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        find_paths("PDF", "Text", SIGS, lattice, **kwargs)  # type: ignore[arg-type]
    assert info.value.fields == [field]


def test_bad_direction_and_limit(lattice: TypeLattice) -> None:
    with pytest.raises(ValidationError, match="direction"):
        find_compatible(SIGS[0], SIGS, lattice, "sideways")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="limit"):
        find_compatible(SIGS[0], SIGS, lattice, limit=0)


@pytest.mark.parametrize("health", [-0.1, 1.5, float("nan")])
def test_signature_health_is_validated(health: float) -> None:
    with pytest.raises(ValidationError, match="health"):
        Signature("x", "A", "B", True, health)


def test_malformed_signature_type_names_the_artifact(lattice: TypeLattice) -> None:
    with pytest.raises(TypeLatticeError, match=r"artifact 'bad': malformed type expression"):
        CompositionIndex(lattice, [Signature("bad", "List[[PDF]]", "Text")])


def test_arity_problems_are_reported_and_match_nothing(lattice: TypeLattice) -> None:
    index = CompositionIndex(lattice, [*SIGS, Signature("odd", "List[PDF, PDF]", "Text")])
    assert index.problems() == ["'List' takes 1 type argument, got 2 in 'List[PDF, PDF]'"]
    assert "odd" not in ids(index.find_compatible(Signature("t", None, "List[PDF]")))


def test_index_add_update_remove(lattice: TypeLattice) -> None:
    index = CompositionIndex(lattice, SIGS)
    assert len(index) == len(SIGS)
    assert [p.ids for p in paths.find_paths(index, PathSearch("PDF", "Summary", k=1))] == [
        ("pdf2sum",)
    ]
    index.update(Signature("pdf2sum", "PDF", "Summary", False, 0.3))  # deprecated now
    assert [p.ids for p in paths.find_paths(index, PathSearch("PDF", "Summary", k=1))] == [
        ("doc2text", "text2sum")
    ]
    index.add(Signature("fast", "Document", "Summary", True, 0.99))
    assert [p.ids for p in paths.find_paths(index, PathSearch("PDF", "Summary", k=1))] == [
        ("fast",)
    ]
    assert index.remove("fast")
    assert not index.remove("fast")
    assert "fast" not in index
    index.update(Signature("doc2text", "Document", "Text", True, 0.1))
    assert [p.ids for p in paths.find_paths(index, PathSearch("PDF", "Summary", k=1))] == [
        ("pdf2text", "text2sum")
    ]
    assert index.get("doc2text") == Signature("doc2text", "Document", "Text", True, 0.1)
    assert [s.id for s in index.signatures()] == sorted(s.id for s in SIGS)


def test_index_find_compatible_by_id(lattice: TypeLattice) -> None:
    index = CompositionIndex(lattice, SIGS)
    assert ids(index.find_compatible("html2pdf")) == ["pdf2text", "doc2text", "pdf2sum"]
    with pytest.raises(NotFoundError):
        index.find_compatible("nope")


def test_index_follows_lattice_changes(lattice: TypeLattice) -> None:
    index = CompositionIndex(lattice, SIGS)
    assert paths.find_paths(index, PathSearch("Markdown", "Text")) == []
    lattice.add_type("Markdown", ["Document"])
    assert [
        p.ids for p in paths.find_paths(index, PathSearch("Markdown", "Text", max_length=1))
    ] == [("doc2text",)]
    other = TypeLattice.from_declarations([("Markdown", ["Text"], 0)])
    index.set_lattice(other)
    assert index.lattice is other
    assert [
        p.ids for p in paths.find_paths(index, PathSearch("Markdown", "Summary", max_length=1))
    ] == [
        ("text2sum",),
    ]


def test_index_grows_past_its_initial_capacity(lattice: TypeLattice) -> None:
    index = CompositionIndex(lattice)
    chain = [Signature(f"s{i:02d}", f"T{i}", f"T{i + 1}", True, 1.0) for i in range(20)]
    for sig in chain:
        index.add(sig)
        paths.find_paths(
            index, PathSearch("T0", f"T{int(sig.id[1:]) + 1}", max_length=10)
        )  # warm caches
    assert [p.ids for p in paths.find_paths(index, PathSearch("T0", "T10", max_length=10))] == [
        tuple(f"s{i:02d}" for i in range(10)),
    ]
    assert paths.find_paths(index, PathSearch("T0", "T11", max_length=10)) == []


def test_equal_health_ties_go_to_the_smallest_ids_whatever_the_index_order() -> None:
    lattice = TypeLattice.from_declarations([("T0", [], 0), ("T1", [], 0), ("T2", ["T0", "T1"], 0)])
    sigs = [  # indexed in this order, grouped by input type: m, z, a
        Signature("m", "T0", "X", True, 0.5),
        Signature("z", "T1", "X", True, 0.5),
        Signature("a", "Any", "X", True, 0.5),
    ]
    assert [p.ids for p in find_paths("T2", "X", sigs, lattice, k=1)] == [("a",)]
    assert [p.ids for p in find_paths("T2", "X", sigs, lattice, k=2)] == [("a",), ("m",)]
    two_steps = [*sigs, Signature("x2y", "X", "Y", True, 0.9)]
    assert [p.ids for p in find_paths("T2", "Y", two_steps, lattice, k=1)] == [("a", "x2y")]


def test_warm_changes_no_result(lattice: TypeLattice) -> None:
    cold = CompositionIndex(lattice, SIGS)
    warm = CompositionIndex(lattice, SIGS)
    warm.warm()
    for source, target in [("PDF", "Summary"), ("HTML", "Text"), ("List[PDF]", "Any")]:
        assert paths.find_paths(warm, PathSearch(source, target, k=20)) == paths.find_paths(
            cold, PathSearch(source, target, k=20)
        )


def test_tables_prepared_beforehand_answer_as_those_built_on_demand(lattice: TypeLattice) -> None:
    """``prepare`` builds at warm-up what a first path question would; answers are the same."""
    prepared = CompositionIndex(lattice, SIGS)
    prepared.prepare()
    assert set(prepared._sparse) == {False, True}  # the usable and the all-artifacts tables
    assert prepared._children and prepared._ranked and prepared._groups  # warm()'s, per type
    reopened = pickle.loads(pickle.dumps(prepared))  # as an image keeps it: no per-type table
    assert not reopened._children and not reopened._ranked and not reopened._groups
    reopened.prepare()
    assert set(reopened._children) == set(prepared._children)
    assert reopened._ranked == prepared._ranked
    lazy = CompositionIndex(lattice, SIGS)
    for unusable in (False, True):
        search = PathSearch("HTML", "Summary", 4, 10, unusable)
        assert paths.find_paths(prepared, search) == paths.find_paths(lazy, search)
        assert list(
            paths.members(prepared, "HTML", "Summary", 4, include_unusable=unusable)
        ) == list(paths.members(lazy, "HTML", "Summary", 4, include_unusable=unusable))
