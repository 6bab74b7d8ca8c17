"""What kind inference finds: kinds with their evidence and a confidence, per parameter, per
group of parameters, and for the output. Frozen values; ``to_dict()`` gives JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lgent.kinds.records import RecordShape

RULES = (
    "formats",
    "patterns",
    "enums",
    "fields",
    "names",
    "values",
    "units",
    "phrases",
    "refine",
    "writes",
    "changes",
)
"""The rules evidence comes from: the vocabulary's (``formats`` ... ``phrases``, ``fields``),
``refine`` (a tool's description names a more specific kind of a parameter's kind), and, for an
output, ``writes`` (a parameter names where the result is written) and ``changes`` (the tool
changes the file it is given)."""


@dataclass(frozen=True)
class Evidence:
    """One rule that fired: which rule of which kind, the rule's text, the text of the schema it
    matched (quoted), where that text is, and the confidence the rule gives."""

    rule: str
    kind: str
    rule_text: str
    quote: str
    where: str
    confidence: float

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        return cls(
            str(data["rule"]),
            str(data["kind"]),
            str(data["rule_text"]),
            str(data["quote"]),
            str(data["where"]),
            float(data["confidence"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "kind": self.kind,
            "rule_text": self.rule_text,
            "quote": self.quote,
            "where": self.where,
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class InferredKind:
    """A kind found for a value: its confidence in [0, 1], the evidence (its own rules' and its
    ancestors'), whether the value is a list of it, and, for a record kind made of several
    parameters or fields, their names."""

    kind: str
    confidence: float
    evidence: tuple[Evidence, ...]
    many: bool = False
    fields: tuple[str, ...] = ()

    @property
    def type_expr(self) -> str:
        """The kind as a type expression: ``PdfFilePath``, or ``List[PdfFilePath]``."""
        return f"List[{self.kind}]" if self.many else self.kind

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InferredKind:
        return cls(
            str(data["kind"]),
            float(data["confidence"]),
            tuple(Evidence.from_dict(e) for e in data.get("evidence", ())),
            many=str(data.get("type", "")).startswith("List["),
            fields=tuple(str(f) for f in data.get("fields", ())),
        )

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "kind": self.kind,
            "type": self.type_expr,
            "confidence": round(self.confidence, 3),
            "evidence": [e.to_dict() for e in self.evidence],
        }
        if self.fields:
            found["fields"] = list(self.fields)
        return found


@dataclass(frozen=True)
class ParameterKinds:
    """The kinds found for one parameter of a tool, best first (none when nothing fired)."""

    name: str
    required: bool
    kinds: tuple[InferredKind, ...]

    @property
    def best(self) -> InferredKind | None:
        return self.kinds[0] if self.kinds else None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParameterKinds:
        return cls(
            str(data["name"]),
            bool(data["required"]),
            tuple(InferredKind.from_dict(k) for k in data.get("kinds", ())),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "required": self.required,
            "kinds": [k.to_dict() for k in self.kinds],
        }


@dataclass(frozen=True)
class ToolKinds:
    """A tool's inferred input and output kinds.

    ``inputs`` has one item per parameter (in the schema's order, required ones first);
    ``groups`` the record kinds that several parameters make together (``latitude`` and
    ``longitude`` make a ``GeoPoint``); ``outputs`` the output's kinds, best first, and
    ``output_record`` the output's fields when it is a record."""

    inputs: tuple[ParameterKinds, ...] = ()
    groups: tuple[InferredKind, ...] = ()
    outputs: tuple[InferredKind, ...] = ()
    output_record: RecordShape | None = None

    @property
    def needs(self) -> tuple[InferredKind, ...]:
        """What the tool needs to run: the groups made of required parameters only, then the
        best kind of each other required parameter that has one."""
        required = {p.name for p in self.inputs if p.required}
        groups = [g for g in self.groups if g.fields and set(g.fields) <= required]
        grouped = {name for g in groups for name in g.fields}
        singles = [
            p.best
            for p in self.inputs
            if p.required and p.name not in grouped and p.best is not None
        ]
        return (*groups, *singles)

    @property
    def accepts(self) -> tuple[InferredKind, ...]:
        """Every input kind the tool takes, required or not: the groups, then the best kind of
        each parameter outside them."""
        grouped = {name for g in self.groups for name in g.fields}
        singles = [p.best for p in self.inputs if p.name not in grouped and p.best is not None]
        return (*self.groups, *singles)

    @property
    def output(self) -> InferredKind | None:
        """The best output kind, or None."""
        return self.outputs[0] if self.outputs else None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolKinds:
        """The kinds ``to_dict`` wrote (an entry's ``kinds``); ``ValueError``, ``KeyError`` or
        ``TypeError`` when ``data`` is not of that shape."""
        record = data.get("output_record")
        return cls(
            inputs=tuple(ParameterKinds.from_dict(p) for p in data.get("inputs", ())),
            groups=tuple(InferredKind.from_dict(g) for g in data.get("groups", ())),
            outputs=tuple(InferredKind.from_dict(o) for o in data.get("outputs", ())),
            output_record=None if record is None else RecordShape.from_dict(record),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": [p.to_dict() for p in self.inputs],
            "groups": [g.to_dict() for g in self.groups],
            "outputs": [o.to_dict() for o in self.outputs],
            "output_record": None if self.output_record is None else self.output_record.to_dict(),
        }


__all__ = ["RULES", "Evidence", "InferredKind", "ParameterKinds", "ToolKinds"]
