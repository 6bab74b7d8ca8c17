"""Strict parsing: query text -> AST, asserted through the compact ``dump()`` form."""

from __future__ import annotations

import json

import pytest

from lgent.errors import QueryError
from lgent.grammar import (
    FIELD_ALIASES,
    FIELDS,
    And,
    MatchAll,
    Not,
    Or,
    Term,
    iter_nodes,
    parse,
)

CASES: list[tuple[str, str]] = [
    # bare terms
    ("pdf", "Term('pdf')"),
    ("PDFParser_v2", "Term('PDFParser_v2')"),
    ("F-gent", "Term('F-gent')"),
    ("2.1.0", "Term('2.1.0')"),
    ("C++ c#", "And(Term('C++'), Term('c#'))"),
    ("  pdf\t\n", "Term('pdf')"),
    ("Überprüfung 数据 тест", "And(Term('Überprüfung'), Term('数据'), Term('тест'))"),
    ("a&&b x||y", "And(Term('a&&b'), Term('x||y'))"),
    ("and or not", "And(Term('and'), Term('or'), Term('not'))"),
    ("ANDROID ORACLE NOTE", "And(Term('ANDROID'), Term('ORACLE'), Term('NOTE'))"),
    # phrases and escapes
    ('"exact phrase"', "Phrase('exact phrase')"),
    ('"say \\"hi\\""', "Phrase('say \"hi\"')"),
    ('"back\\\\slash"', "Phrase('back\\\\slash')"),
    ('"keep \\n as typed"', "Phrase('keep \\\\n as typed')"),
    ('"AND OR NOT ( ) : - *"', "Phrase('AND OR NOT ( ) : - *')"),
    ('pdf"parser"', "And(Term('pdf'), Phrase('parser'))"),
    # fields
    ("name:parser", "Term(name:'parser')"),
    ("NAME:parser", "Term(name:'parser')"),
    ("tag:pdf", "Term(keywords:'pdf')"),
    ("Tag:pdf keywords:x", "And(Term(keywords:'pdf'), Term(keywords:'x'))"),
    ("type:agent status:active", "And(Term(type:'agent'), Term(status:'active'))"),
    ("author:F-gent", "Term(author:'F-gent')"),
    ("input:Document output:Summary", "And(Term(input:'Document'), Term(output:'Summary'))"),
    ("execution:local version:2.1.0", "And(Term(execution:'local'), Term(version:'2.1.0'))"),
    ("id:acme:pdf-parser", "Term(id:'acme:pdf-parser')"),
    ('description:"financial analysis"', "Phrase(description:'financial analysis')"),
    ("name:AND", "Term(name:'AND')"),
    ("name:-x", "Term(name:'-x')"),
    ("name:(a OR b)", "Or(Term(name:'a'), Term(name:'b'))"),
    ("name:(a b)", "And(Term(name:'a'), Term(name:'b'))"),
    (
        'name:(pdf "x y" News* parse~1)',
        "And(Term(name:'pdf'), Phrase(name:'x y'), Wildcard(name:'News*'), Fuzzy(name:'parse', 1))",
    ),
    ("name:(a author:b)", "And(Term(name:'a'), Term(author:'b'))"),
    ("name:(a -b)", "And(Term(name:'a'), Not(Term(name:'b')))"),
    ("name:((a OR b) c)", "And(Or(Term(name:'a'), Term(name:'b')), Term(name:'c'))"),
    # wildcards
    ("News*", "Wildcard('News*')"),
    ("*Parser", "Wildcard('*Parser')"),
    ("pars?r", "Wildcard('pars?r')"),
    ("version:2.*", "Wildcard(version:'2.*')"),
    ("name:*", "Wildcard(name:'*')"),
    ("*", "MatchAll()"),
    ("**", "MatchAll()"),
    ("* -draft", "And(MatchAll(), Not(Term('draft')))"),
    ("* pdf", "Term('pdf')"),
    # fuzzy
    ("parser~1", "Fuzzy('parser', 1)"),
    ("parser~", "Fuzzy('parser', 1)"),
    ("parser~0", "Fuzzy('parser', 0)"),
    ("parser~2", "Fuzzy('parser', 2)"),
    ("name:parser~2", "Fuzzy(name:'parser', 2)"),
    ("a~b", "Term('a~b')"),
    # boolean operators and precedence
    ("a AND b", "And(Term('a'), Term('b'))"),
    ("a && b", "And(Term('a'), Term('b'))"),
    ("a OR b", "Or(Term('a'), Term('b'))"),
    ("a || b", "Or(Term('a'), Term('b'))"),
    ("a b c", "And(Term('a'), Term('b'), Term('c'))"),
    ("a OR b OR c", "Or(Term('a'), Term('b'), Term('c'))"),
    ("a AND b OR c", "Or(And(Term('a'), Term('b')), Term('c'))"),
    ("a OR b AND c", "Or(Term('a'), And(Term('b'), Term('c')))"),
    ("a b OR c", "Or(And(Term('a'), Term('b')), Term('c'))"),
    ("a OR b c", "Or(Term('a'), And(Term('b'), Term('c')))"),
    ("(a OR b) c", "And(Or(Term('a'), Term('b')), Term('c'))"),
    ("pdf AND (parser OR extractor)", "And(Term('pdf'), Or(Term('parser'), Term('extractor')))"),
    ("(pdf OR html) AND parser", "And(Or(Term('pdf'), Term('html')), Term('parser'))"),
    ("((a))", "Term('a')"),
    ("(a AND b) AND (c AND d)", "And(Term('a'), Term('b'), Term('c'), Term('d'))"),
    ("(a OR b) OR (c OR d)", "Or(Term('a'), Term('b'), Term('c'), Term('d'))"),
    ("NOT a b", "And(Not(Term('a')), Term('b'))"),
    ("NOT (a b)", "And(MatchAll(), Not(And(Term('a'), Term('b'))))"),
    ("a AND NOT b OR c", "Or(And(Term('a'), Not(Term('b'))), Term('c'))"),
    # prefixes
    ("pdf -draft", "And(Term('pdf'), Not(Term('draft')))"),
    ("pdf -name:draft", "And(Term('pdf'), Not(Term(name:'draft')))"),
    ('pdf -"old parser"', "And(Term('pdf'), Not(Phrase('old parser')))"),
    ("pdf -(a OR b)", "And(Term('pdf'), Not(Or(Term('a'), Term('b'))))"),
    ("+pdf parser", "And(Required(Term('pdf')), Term('parser'))"),
    ("+name:pdf", "Required(Term(name:'pdf'))"),
    ("a-b -c", "And(Term('a-b'), Not(Term('c')))"),
    # NOT rules: only negations get a MatchAll; double negation cancels
    ("-draft", "And(MatchAll(), Not(Term('draft')))"),
    ("NOT pdf", "And(MatchAll(), Not(Term('pdf')))"),
    ("-a -b", "And(MatchAll(), Not(Term('a')), Not(Term('b')))"),
    ("NOT a AND NOT b", "And(MatchAll(), Not(Term('a')), Not(Term('b')))"),
    ("a OR -b", "Or(Term('a'), And(MatchAll(), Not(Term('b'))))"),
    ("-a OR -b", "Or(And(MatchAll(), Not(Term('a'))), And(MatchAll(), Not(Term('b'))))"),
    ("(-a) b", "And(Not(Term('a')), Term('b'))"),
    ("--a", "Term('a')"),
    ("NOT NOT a", "Term('a')"),
    ("-(-a)", "Term('a')"),
    ("-+a", "And(MatchAll(), Not(Term('a')))"),
    ("+-a", "And(MatchAll(), Not(Term('a')))"),
    ("++a", "Required(Term('a'))"),
    ("-*", "And(MatchAll(), Not(MatchAll()))"),
]


@pytest.mark.parametrize(("query", "expected"), CASES)
def test_parse_dump(query: str, expected: str) -> None:
    assert parse(query).dump() == expected


OR_CASES: list[tuple[str, str]] = [
    ("a b c", "Or(Term('a'), Term('b'), Term('c'))"),
    ("a b AND c", "Or(Term('a'), And(Term('b'), Term('c')))"),
    ("a AND b c", "Or(And(Term('a'), Term('b')), Term('c'))"),
    ("(a b) AND c", "And(Or(Term('a'), Term('b')), Term('c'))"),
    # adjacency under OR: a negated operand excludes from its neighbours
    ("a b -c", "And(Or(Term('a'), Term('b')), Not(Term('c')))"),
    ("-c a b", "And(Or(Term('a'), Term('b')), Not(Term('c')))"),
    ("+a b -c", "And(Or(Required(Term('a')), Term('b')), Not(Term('c')))"),
    ("a -c OR d", "Or(And(Term('a'), Not(Term('c'))), Term('d'))"),
    # ... but an explicit OR keeps its boolean meaning
    ("a OR -c", "Or(Term('a'), And(MatchAll(), Not(Term('c'))))"),
    ("-a -b", "And(MatchAll(), Not(Term('a')), Not(Term('b')))"),
    ("+pdf parser", "Or(Required(Term('pdf')), Term('parser'))"),
    ("name:(a b)", "Or(Term(name:'a'), Term(name:'b'))"),
]


@pytest.mark.parametrize(("query", "expected"), OR_CASES)
def test_default_operator_or(query: str, expected: str) -> None:
    assert parse(query, default_operator="OR").dump() == expected


def test_default_operator_is_and() -> None:
    assert parse("a b").dump() == parse("a b", default_operator="AND").dump()
    assert parse("a b", default_operator="or").dump() == "Or(Term('a'), Term('b'))"  # type: ignore[arg-type]


def test_bad_default_operator() -> None:
    with pytest.raises(QueryError, match="default_operator must be 'AND' or 'OR'"):
        parse("a", default_operator="XOR")  # type: ignore[arg-type]


SPAN_CASES: list[tuple[str, str]] = [
    ("pdf", "Term('pdf')@0:3"),
    ('name:parser~1 "a b"', "And(Fuzzy(name:'parser', 1)@0:13, Phrase('a b')@14:19)@0:19"),
    (
        "(a b) OR name:(c d)",
        "Or(And(Term('a')@1:2, Term('b')@3:4)@0:5, "
        "And(Term(name:'c')@15:16, Term(name:'d')@17:18)@9:19)@0:19",
    ),
    ('-name:x +"y z"', "And(Not(Term(name:'x')@1:7)@0:7, Required(Phrase('y z')@9:14)@8:14)@0:14"),
    ("-draft", "And(MatchAll()@0:6, Not(Term('draft')@1:6)@0:6)@0:6"),
    ("NOT  a", "And(MatchAll()@0:6, Not(Term('a')@5:6)@0:6)@0:6"),
    ("数据 x*", "And(Term('数据')@0:2, Wildcard('x*')@3:5)@0:5"),
]


@pytest.mark.parametrize(("query", "expected"), SPAN_CASES)
def test_spans(query: str, expected: str) -> None:
    assert parse(query).dump(spans=True) == expected


def test_spans_slice_the_source() -> None:
    query = 'pdf AND name:"x \\" y" -tag:News* (fuzz~2 OR 数据)'
    leaves = {
        query[n.start : n.end]
        for n in iter_nodes(parse(query))
        if not isinstance(n, And | Or | Not | MatchAll)
    }
    assert leaves == {"pdf", 'name:"x \\" y"', "tag:News*", "fuzz~2", "数据"}


def test_nodes_are_frozen_values() -> None:
    node = parse("a")
    assert node == Term("a", None, start=0, end=1)
    with pytest.raises(AttributeError):
        node.text = "b"  # type: ignore[misc]
    assert hash(parse("a b")) == hash(parse("a b"))


def test_to_dict_is_json() -> None:
    data = parse('name:pdf* -x~2 OR "y" +*').to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "type": "or",
        "children": [
            {
                "type": "and",
                "children": [
                    {"type": "wildcard", "pattern": "pdf*", "field": "name", "start": 0, "end": 9},
                    {
                        "type": "not",
                        "child": {
                            "type": "fuzzy",
                            "text": "x",
                            "distance": 2,
                            "field": None,
                            "start": 11,
                            "end": 14,
                        },
                        "start": 10,
                        "end": 14,
                    },
                ],
                "start": 0,
                "end": 14,
            },
            {
                "type": "and",
                "children": [
                    {"type": "phrase", "text": "y", "field": None, "start": 18, "end": 21},
                    {
                        "type": "required",
                        "child": {"type": "match_all", "start": 23, "end": 24},
                        "start": 22,
                        "end": 24,
                    },
                ],
                "start": 18,
                "end": 24,
            },
        ],
        "start": 0,
        "end": 24,
    }


def test_fields_table() -> None:
    assert FIELDS == (
        "author",
        "description",
        "execution",
        "id",
        "input",
        "keywords",
        "name",
        "output",
        "status",
        "type",
        "version",
    )
    assert dict(FIELD_ALIASES) == {"tag": "keywords"}
    for name in [*FIELDS, *FIELD_ALIASES]:
        node = parse(f"{name.upper()}:x")
        assert isinstance(node, Term)
        assert node.field == FIELD_ALIASES.get(name, name)


def test_not_rule_holds_for_every_negation() -> None:
    """Every Not sits directly in an And that also has a positive child."""
    for query, _ in CASES + OR_CASES:
        root = parse(query)
        assert not isinstance(root, Not)
        for node in iter_nodes(root):
            for child in getattr(node, "children", ()):
                if isinstance(child, Not):
                    assert isinstance(node, And)
                    assert any(not isinstance(c, Not) for c in node.children)
            if isinstance(node, Not):
                assert not isinstance(node.child, Not)
            assert not (isinstance(node, And) and len(node.children) < 2)
    assert isinstance(parse("-x").children[0], MatchAll)  # type: ignore[union-attr]
