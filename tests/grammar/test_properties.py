"""Property test: any string gives an AST or a QuerySyntaxError (strict), and always an AST
(lenient), with every span inside the text and the NOT rule kept."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgent.errors import QuerySyntaxError
from lgent.grammar import (
    And,
    Node,
    Not,
    Or,
    Term,
    iter_nodes,
    parse,
    parse_lenient,
)
from lgent.grammar.parser import _Parser, plain_words
from tests.examples import examples

SPECIAL = [
    "(",
    ")",
    '"',
    ":",
    "*",
    "?",
    "~",
    "-",
    "+",
    " ",
    "  ",
    "\t",
    "\n",
    "\\",
    '\\"',
    "AND",
    "OR",
    "NOT",
    "&&",
    "||",
    "and",
    "~1",
    "~2",
    "~3",
    "~99",
    '""',
    "()",
    "name:",
    "tag:",
    "NAME:",
    "foo:",
    "version:",
    "name:(",
    ":)",
    "pdf",
    "PDFParser_v2",
    "F-gent",
    "2.1.0",
    "News*",
    "pars?r",
    "数据",
    "Ü",
    "x",
    "9",
]

fragments = st.one_of(st.sampled_from(SPECIAL), st.text(max_size=4))
soup = st.lists(fragments, max_size=40).map("".join)
short_text = st.one_of(st.text(max_size=120), soup)


@st.composite
def long_text(draw: st.DrawFn) -> str:
    """Up to 20k characters, made by repeating a generated fragment."""
    nonempty = st.one_of(st.sampled_from(SPECIAL), st.text(min_size=1, max_size=4))
    piece = draw(st.lists(nonempty, min_size=1, max_size=12).map("".join))
    length = draw(st.integers(1_000, 20_000))
    return (piece * (length // len(piece) + 1))[:length]


# Long inputs are about 2% of the examples: enough to exercise them, cheap enough to run 10k.
queries = st.integers(0, 49).flatmap(lambda k: long_text() if k == 0 else short_text)


def check_tree(node: Node, text: str) -> None:
    assert not isinstance(node, Not)
    for current in iter_nodes(node):
        assert 0 <= current.start <= current.end <= len(text)
        if isinstance(current, And | Or):
            assert len(current.children) >= 2
        if isinstance(current, Not):
            assert not isinstance(current.child, Not)
        for child in getattr(current, "children", ()):
            if isinstance(child, Not):
                assert isinstance(current, And)
                assert any(not isinstance(c, Not) for c in current.children)
    node.dump(spans=True)
    node.to_dict()


@pytest.mark.slow
@settings(
    deadline=None, max_examples=examples(10_000), suppress_health_check=[HealthCheck.too_slow]
)
@given(text=queries, operator=st.sampled_from(["AND", "OR"]))
def test_any_string_parses_or_fails_cleanly(text: str, operator: str) -> None:
    try:
        strict: Node | None = parse(text, default_operator=operator)  # type: ignore[arg-type]
    except QuerySyntaxError as err:
        strict = None
        assert 0 <= err.position <= len(text)
        assert err.pretty().startswith(str(err))
    if strict is not None:
        check_tree(strict, text)

    result = parse_lenient(text, default_operator=operator)  # type: ignore[arg-type]
    assert all(isinstance(w, str) and w.startswith("position ") for w in result.warnings)
    if result.ast is None:
        assert not text.strip()
    else:
        check_tree(result.ast, text)
    if strict is not None:  # a valid query needs no repair and means the same thing
        assert result.ast == strict
        assert result.warnings == []
    else:
        assert result.warnings


plain_or_not = st.lists(
    st.one_of(
        st.sampled_from([*SPECIAL, "pdf", "parser", "R&D", "a\\b", "x-y", "über", "v2.1"]),
        st.text(min_size=1, max_size=6),
    ),
    min_size=1,
    max_size=8,
).map(" ".join)


@settings(deadline=None, max_examples=examples(3_000))
@given(text=plain_or_not, operator=st.sampled_from(["AND", "OR"]))
def test_plain_word_shortcut_builds_the_parsers_tree(text: str, operator: str) -> None:
    """Free text of plain words skips the full parser; when it does, the tree is the same."""
    shortcut = plain_words(text, operator)  # type: ignore[arg-type]
    full = _Parser(text, operator, lenient=False)
    try:
        tree = full.parse()
    except QuerySyntaxError:
        assert shortcut is None
        return
    if shortcut is not None:
        assert shortcut == tree
        assert all(isinstance(n, Term | And | Or) for n in iter_nodes(tree))


def test_plain_word_shortcut_takes_free_text_and_leaves_syntax_alone() -> None:
    assert plain_words("clean up messy text") == parse("clean up messy text")
    for syntax in ("pdf AND parser", "-draft", "News*", "parsr~1", "name:x", '"a b"', "(a)", "||"):
        assert plain_words(f"pdf {syntax}") is None, syntax


def test_lenient_parsing_takes_the_same_shortcut() -> None:
    result = parse_lenient("clean up messy text", default_operator="OR")
    assert result.ast == plain_words("clean up messy text", "OR") and result.warnings == []
