"""Small vocabularies for testing one rule at a time."""

from __future__ import annotations

from typing import Any

from lgent.kinds import ToolKinds, Vocabulary, infer_tool_kinds
from lgent.models import TypeDecl


def vocab(*kinds: dict[str, Any]) -> Vocabulary:
    return Vocabulary.from_declarations([TypeDecl.parse(k) for k in kinds])


def kind(name: str, parents: tuple[str, ...] = (), **evidence: Any) -> dict[str, Any]:
    return {"type": name, "subtype_of": list(parents), "evidence": evidence}


def one_parameter(
    vocabulary: Vocabulary, name: str, schema: dict[str, Any], **tool: Any
) -> ToolKinds:
    return infer_tool_kinds(
        vocabulary,
        input_schema={"type": "object", "properties": {name: schema}, "required": [name]},
        **tool,
    )


def best_input(
    vocabulary: Vocabulary, name: str, schema: dict[str, Any], **tool: Any
) -> str | None:
    found = one_parameter(vocabulary, name, schema, **tool).inputs[0].best
    return None if found is None else found.type_expr


def best_output(vocabulary: Vocabulary, **tool: Any) -> str | None:
    found = infer_tool_kinds(vocabulary, **tool).output
    return None if found is None else found.type_expr
