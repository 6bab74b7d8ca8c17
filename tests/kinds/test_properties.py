"""Any schema gives kinds or nothing, never an exception; what comes back is well formed."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.kinds import FieldShape, RecordShape, ToolKinds, Vocabulary, infer_tool_kinds, record_fit
from lgent.kinds.clauses import description_clauses, name_clause

KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "format",
        "pattern",
        "enum",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "description",
        "title",
        "required",
        "examples",
        "example",
        "default",
        "const",
        "url",
        "path",
        "latitude",
        "lng",
        "result",
        "data",
        "file_path",
        "output_path",
        "x",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.sampled_from(
        [
            "string",
            "number",
            "integer",
            "array",
            "object",
            "null",
            "uri",
            "date-time",
            "#/",
            "#/$defs/a",
            "#/definitions/x/y",
            "e.g. 'https://a.b'",
            "Returns a PDF",
        ]
    ),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=30,
)


def check(found: ToolKinds) -> None:
    assert isinstance(found, ToolKinds)
    for item in [*(k for p in found.inputs for k in p.kinds), *found.groups, *found.outputs]:
        assert 0.0 <= item.confidence <= 1.0
        assert item.evidence and all(0.0 <= e.confidence <= 1.0 for e in item.evidence)
    found.to_dict()
    assert all(k.kind for k in found.needs)


@settings(max_examples=300, deadline=None)
@given(
    inputs=JSON,
    outputs=JSON,
    document=JSON,
    name=st.text(max_size=30),
    description=st.text(max_size=200),
)
def test_any_schema_gives_kinds_or_nothing(
    vocabulary: Vocabulary, inputs: Any, outputs: Any, document: Any, name: str, description: str
) -> None:
    check(
        infer_tool_kinds(
            vocabulary,
            name=name,
            description=description,
            input_schema=inputs,
            output_schema=outputs,
            output_description=description,
            document=document,
        )
    )
    check(
        infer_tool_kinds(
            vocabulary,
            input_schema={"type": "object", "properties": {"p": inputs}},
            output_schema={"properties": {"result": outputs}},
        )
    )


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), name=st.text(max_size=40))
def test_any_text_gives_clauses(text: str, name: str) -> None:
    for clause in description_clauses(text):
        assert 0.0 < clause.confidence <= 1.0
    named = name_clause(name)
    assert named is None or named.text


def test_reference_cycles_and_deep_nesting_end(vocabulary: Vocabulary) -> None:
    document = {
        "$defs": {
            "a": {"$ref": "#/$defs/b"},
            "b": {"$ref": "#/$defs/a"},
            "node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}},
        }
    }
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(200):
        deep = {"type": "array", "items": deep}
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a"}, "n": {"$ref": "#/$defs/node"}, "deep": deep},
    }
    check(
        infer_tool_kinds(
            vocabulary,
            input_schema=schema,
            output_schema={"$ref": "#/$defs/node"},
            document=document,
        )
    )


FIELDS = st.dictionaries(
    st.sampled_from(["a", "b", "c", "lat", "lng"]),
    st.builds(
        FieldShape,
        kind=st.sampled_from([None, "Latitude", "Longitude", "Path", "FilePath"]),
        types=st.frozensets(st.sampled_from(["string", "number", "integer"])),
        many=st.booleans(),
        required=st.booleans(),
    ),
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(producer=FIELDS, consumer=FIELDS)
def test_record_fit_is_total_and_a_record_fits_itself(
    vocabulary: Vocabulary, producer: dict[str, FieldShape], consumer: dict[str, FieldShape]
) -> None:
    fit = record_fit(RecordShape.of(producer), RecordShape.of(consumer), vocabulary)
    assert fit is None or 0.0 < fit.score <= 1.0
    me = RecordShape.of(producer)
    if any(f.required for f in producer.values()):
        mine = record_fit(me, me, vocabulary)
        assert mine is not None and mine.by_name == sum(f.required for f in producer.values())
