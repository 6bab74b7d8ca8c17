"""NameIndex: exact resolution rules, incremental updates, and fuzzy lookup against difflib."""

from __future__ import annotations

import difflib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.catalog.loaders import read_path
from lgent.graph.names import FUZZY_CUTOFF, FUZZY_MAX_WORDS, NameIndex, normalized
from tests.conftest import FIXTURES
from tests.examples import examples


def build(pairs: list[tuple[str, str]]) -> NameIndex:
    """An index grown one artifact at a time (every key in the trigram overlay)."""
    index = NameIndex()
    for artifact_id, name in pairs:
        index.add(artifact_id, name)
    return index


def mixed(pairs: list[tuple[str, str]]) -> NameIndex:
    """Half built in bulk, the rest added; a few bulk ones removed and added back."""
    half = len(pairs) // 2
    index = NameIndex.of(pairs[:half])
    for artifact_id, name in pairs[half:]:
        index.add(artifact_id, name)
    for artifact_id, name in pairs[: half // 2]:
        index.remove(artifact_id, name)
    for artifact_id, name in pairs[: half // 4]:
        index.add(artifact_id, name)
    return index


def reference_mapping(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The rule spelled out: ids beat names; among either, the smallest id."""
    names: dict[str, str] = {}
    for artifact_id, name in sorted(pairs):
        if normalized(name):
            names.setdefault(normalized(name), artifact_id)
    for artifact_id, _ in sorted(pairs, reverse=True):
        if normalized(artifact_id):
            names[normalized(artifact_id)] = artifact_id
    return dict(sorted(names.items()))


def reference_fuzzy(index: NameIndex, text: str) -> str | None:
    key = normalized(text)
    if not key:
        return None
    exact = index.resolve(key)
    if exact is not None:
        return exact
    if len(key) < 5:
        return None
    close = difflib.get_close_matches(key, list(index.mapping()), n=1, cutoff=FUZZY_CUTOFF)
    return index.resolve(close[0]) if close else None


# ------------------------------------------------------------------------------ exact rules


def test_an_id_wins_over_a_look_alike_name() -> None:
    index = build([("b-tool", "Summarizer"), ("summarizer", "Something Else")])
    assert index.lookup("Summarizer") == "summarizer"
    assert index.lookup("something else") == "summarizer"


def test_the_smallest_id_wins_among_shared_names_and_shared_ids() -> None:
    index = build([("zeta", "PDF Parser"), ("alpha", "pdf_parser"), ("m", "PDF-parser")])
    assert index.lookup("pdfparser") == "alpha"
    index = build([("pdf_parser", "x"), ("pdf-parser", "y"), ("PDFParser", "z")])
    assert index.lookup("PDF parser") == "PDFParser"  # "P" < "p"
    index.remove("PDFParser", "z")
    assert index.lookup("PDF parser") == "pdf-parser"


def test_removal_and_rename_release_the_old_keys() -> None:
    index = build([("t1", "Old Name"), ("t2", "old name")])
    index.remove("t1", "Old Name")
    index.add("t1", "New Name")
    assert index.lookup("old name") == "t2"
    assert index.lookup("new name") == "t1"
    index.remove("t2", "old name")
    assert index.lookup("old name", fuzzy=False) is None
    assert index.mapping() == {"newname": "t1", "t1": "t1"}
    assert index.state() == build([("t1", "New Name")]).state()


def test_removing_what_is_not_there_changes_nothing() -> None:
    index = build([("t1", "Name")])
    index.remove("t2", "Name")
    index.remove("t1", "Other")  # the id key goes, the name stays indexed under t1
    assert index.mapping() == {"name": "t1"}


def test_punctuation_only_text_names_nothing() -> None:
    index = build([("t1", "---")])
    assert index.lookup("---") is None
    assert index.lookup("") is None
    assert index.mapping() == {"t1": "t1"}


ids = st.sampled_from(["a1", "a2", "b1", "B1", "b-1", "c", "summarizer", "sum_marizer"])
names = st.sampled_from(["Summarizer", "summarizer!", "B 1", "a2", "Parser", "parser", "!!", "C"])


@settings(max_examples=examples(200), deadline=None)
@given(
    st.dictionaries(ids, names, max_size=6),
    st.lists(st.tuples(st.booleans(), ids, names), max_size=25),
)
def test_any_sequence_of_changes_equals_a_fresh_index(
    initial: dict[str, str], changes: list[tuple[bool, str, str]]
) -> None:
    index = NameIndex.of(initial.items())
    current = dict(initial)
    for remove, artifact_id, name in changes:
        if artifact_id in current:  # an upsert or a removal first drops the old name
            index.remove(artifact_id, current.pop(artifact_id))
        if not remove:
            index.add(artifact_id, name)
            current[artifact_id] = name
    pairs = sorted(current.items())
    fresh = NameIndex.of(pairs)
    assert index.state() == fresh.state() == build(pairs).state()
    assert index.mapping() == fresh.mapping() == reference_mapping(pairs)
    assert len(index) == len(fresh) == len(fresh.mapping())


# ------------------------------------------------------------------------------ fuzzy


def test_fuzzy_finds_a_near_miss_and_skips_short_keys() -> None:
    index = build([("Summarizer_v4", "Summarizer v4"), ("abde", "abde")])
    assert index.lookup("sumarizer v4") == "Summarizer_v4"
    assert index.lookup("sumarizer v4", fuzzy=False) is None
    assert index.lookup("abdf") is None  # under 5 characters: exact only
    # a 5-letter query and a 4-letter key share no trigram yet reach 0.889: still found
    assert difflib.SequenceMatcher(None, "abde", "abcde").ratio() >= FUZZY_CUTOFF
    assert index.fuzzy("abcde") == "abde"


def test_a_phrase_of_many_words_is_looked_up_exactly_only() -> None:
    name = "Fetch Weather Report For City Today"
    index = NameIndex.of([("weather_report", name)])
    assert len(name.split()) > FUZZY_MAX_WORDS
    assert index.lookup(name) == "weather_report"  # exactly: still found
    misspelt = name.replace("Weather", "Wether")
    assert index.fuzzy(normalized(misspelt)) == normalized(name)  # close enough by its ratio
    assert index.lookup(misspelt) is None  # but a sentence is never read as a misspelt name
    assert index.lookup("Wether Report") == "weather_report"  # a short one: fuzzy (its id)
    index = NameIndex.of([("formyteams", "For My Teams")])
    assert index.lookup("For My Teams") == "formyteams"  # exactly: still found
    assert index.lookup("for my team") is None  # a sentence's tail, not a misspelt name
    assert index.lookup("formyteam") == "formyteams"  # one word: fuzzy as before


def test_fuzzy_ties_go_to_the_greatest_key_as_in_difflib() -> None:
    stored = ["abcdefghxj", "abcdefghyj"]
    index = build([(k, k) for k in stored])
    expected = difflib.get_close_matches("abcdefghij", stored, n=1, cutoff=FUZZY_CUTOFF)
    assert expected == ["abcdefghyj"]
    assert index.fuzzy("abcdefghij") == "abcdefghyj"


ALPHABET = "abcde12"
keys = st.text(ALPHABET, min_size=1, max_size=12)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(keys, min_size=1, max_size=30, unique=True), st.lists(keys, max_size=10))
def test_fuzzy_equals_difflib_over_every_key(stored: list[str], queries: list[str]) -> None:
    pairs = [(k, k) for k in stored]
    for index in (NameIndex.of(pairs), build(pairs), mixed(pairs)):
        keys = list(index.mapping())  # mixed() leaves some out
        for query in [*queries, *(k[1:] + k[:1] for k in stored), *(k + "a" for k in stored)]:
            close = {
                k
                for k in keys
                if difflib.SequenceMatcher(None, k, query).ratio() >= FUZZY_CUTOFF or k == query
            }
            assert close <= index.candidates(query)
            expected = difflib.get_close_matches(query, keys, n=1, cutoff=FUZZY_CUTOFF)
            if len(query) >= 5:
                assert index.fuzzy(query) == (expected[0] if expected else None), query


def near_misses(key: str, rng: random.Random) -> list[str]:
    """Typos of ``key``: deletions, insertions, substitutions and swaps, one to three."""
    found = []
    for _ in range(6):
        chars = list(key)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars) + 1)
            edit = rng.choice("dist")
            if edit == "d" and len(chars) > 1:
                del chars[min(at, len(chars) - 1)]
            elif edit == "i":
                chars.insert(at, rng.choice("aeinorstuv0123456789"))
            elif edit == "s":
                chars[min(at, len(chars) - 1)] = rng.choice("aeinorstuv0123456789")
            elif len(chars) > 1:
                at = min(at, len(chars) - 2)
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
        found.append("".join(chars))
    return found


@pytest.fixture(scope="module", params=["bulk", "mixed"])
def example_index(request: pytest.FixtureRequest) -> NameIndex:
    pairs = [(e.id, e.name) for e in read_path(FIXTURES).entries]
    return NameIndex.of(pairs) if request.param == "bulk" else mixed(pairs)


def test_fuzzy_lookup_equals_difflib_on_the_example_catalog(example_index: NameIndex) -> None:
    rng = random.Random(5)
    queries = [q for key in example_index.mapping() for q in near_misses(key, rng)]
    queries += ["sentimentengin", "pdfparserv3", "Summariser v4", "stock tickr", "ocr reader"]
    assert len(queries) > 1500
    differ = [q for q in queries if example_index.lookup(q) != reference_fuzzy(example_index, q)]
    assert differ == []
    fuzzy_hits = sum(
        example_index.lookup(q, fuzzy=False) is None and example_index.lookup(q) is not None
        for q in queries
    )
    assert fuzzy_hits > 500  # the comparison exercised the fuzzy path, not only exact hits


def test_suggestions_name_every_artifact_a_close_name_belongs_to() -> None:
    index = NameIndex.of(
        [
            ("desktop/read_file", "read_file"),
            ("fs/read_file", "read_file"),
            ("fs/edit_file", "edit_file"),
        ]
    )
    assert index.closest("read_fil", 3)[:2] == ["desktop/read_file", "fs/read_file"]
    assert index.owners("readfile") == ("desktop/read_file", "fs/read_file")
