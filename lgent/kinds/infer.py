"""Kind inference: a tool's input and output kinds from its schemas, name and description.

A pure function, :func:`infer_tool_kinds`, of the vocabulary and the tool's text: no model, no
network, no state. It never raises on a malformed schema; what cannot be read gives no kind.

* **Inputs.** Each property of the input object schema is a value (its name, type, format,
  pattern, enum, examples, description) checked against every kind's rules
  (``lgent.kinds.rules``). A kind found for a parameter is *refined* when the tool's description
  names one of its subkinds ("Add a paragraph to a Word document": the ``filename`` is a
  ``WordDocumentPath``). Record kinds (``fields`` rules) are also looked for across the
  parameters, so ``latitude`` + ``longitude`` make a ``GeoPoint`` group, and
  ``from_latitude``... ``to_longitude`` two of them.
* **Output.** A lone ``result``/``data``/``value``... wrapper (what FastMCP and many APIs put
  around a value) is unwrapped; the value's rules apply as for an input (without a name), a
  record's fields are described (``ToolKinds.output_record``) and matched against record kinds;
  the description of the output schema and of the response is searched for phrases; and the
  tool's *result clauses* (``lgent.kinds.clauses``) are searched for each kind's phrases.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from lgent.kinds.cache import Findings, InferenceCache, located
from lgent.kinds.clauses import (
    Clause,
    before_result,
    description_clauses,
    first_sentence,
    head_ends,
    name_clause,
)
from lgent.kinds.records import FieldShape, RecordShape, prefixed_groups, record_fit
from lgent.kinds.results import Evidence, InferredKind, ParameterKinds, ToolKinds
from lgent.kinds.rules import CONFIDENCE, combine, phrase_evidence, value_evidence
from lgent.kinds.schemas import Value, object_properties, text_of, unwrap, value_of
from lgent.kinds.vocabulary import ANY, Vocabulary
from lgent.kinds.words import MAX_TEXT, normal_name

WRAPPERS = frozenset(
    {
        "result",
        "results",
        "data",
        "value",
        "values",
        "items",
        "return",
        "response",
        "output",
        "payload",
        "properties",
    }
)
"""Names of a lone output property that only wraps the value (compared in lower case). The
census counted, as the only property of an output: ``properties`` 447, ``Results`` 142,
``result`` 128, ``value`` 98, ``data`` 31, ``results`` 21, ``Return`` 17, ``items`` 16."""
MAX_PARAMETERS = 60
"""Parameters (and record fields) read per schema; the rest are left out."""
MAX_RECORD_DEPTH = 1
"""Levels of nested records whose fields are described."""
LOCATORS = ("URL", "Path")
"""Kinds that say where a value is; found as the object of a fetching verb, they are inputs."""
FILES = ("FilePath", "RepositoryPath")
"""Kinds (with their subkinds) naming a file or repository a tool may change or write: the
*effect* of a tool that changes one is that file, its output (and ``Path`` itself)."""
CHANGING = re.compile(
    r"^(?:add|adds|append|appends|insert|inserts|write|writes|overwrite|overwrites|update|"
    r"updates|edit|edits|set|sets|delete|deletes|remove|removes|replace|replaces|format|formats|"
    r"apply|applies|protect|protects|unprotect|unprotects|merge|merges|split|splits|clear|clears|"
    r"commit|commits|stage|stages|unstage|unstages|reset|resets|checkout|rename|renames|modify|"
    r"modifies|populate|populates|customize|customizes|create|creates|copy|copies|save|saves|"
    r"init|initialize|initializes|"
    r"record|records|fill|fills|annotate|annotates|resize|resizes|rotate|rotates|crop|crops|"
    r"compress|compresses|encrypt|encrypts|decrypt|decrypts)$",
    re.IGNORECASE,
)
"""Verbs of tools that change the file they are given (not "move" or "convert": their source
stays as it was; where they write is an output parameter)."""
SOURCE_PARAMETER = re.compile(r"^(?:source|src|template|input|from|original)(?:_|$)")
"""Names (in snake case) of a parameter a tool reads from: never the file it changes."""
OUTPUT_PARAMETER = re.compile(r"(?:^|_)(?:output|out|destination|dest|target|save)(?:_|$)")
"""Names (in snake case) of a parameter saying where a tool writes its result."""


def _findings(vocabulary: Vocabulary, value: Value, depth: int, cache: InferenceCache) -> Findings:
    """What every kind's rules find on ``value`` (located at ``""``) and, for a record, its
    fields; remembered by ``cache``."""

    def compute(value: Value) -> Findings:
        record = (
            record_shape(vocabulary, value, depth, cache) if value.properties is not None else None
        )
        head = value.head[0] if value.head else ""
        evidence = tuple(
            e
            for kind in vocabulary.index.value_kinds(value, record, head)
            for e in value_evidence(kind, value, record, vocabulary)
        )
        return Findings(evidence, record, combine(evidence, vocabulary, many=value.many))

    return cache.findings(value, depth, compute)


def record_shape(
    vocabulary: Vocabulary, value: Value, depth: int = 0, cache: InferenceCache | None = None
) -> RecordShape | None:
    """The fields of a record value, each with its best kind (nested records to
    ``MAX_RECORD_DEPTH``)."""
    if value.properties is None or depth > MAX_RECORD_DEPTH:
        return None
    cache = InferenceCache() if cache is None else cache
    required = set(value.required)
    fields: list[tuple[str, FieldShape]] = []
    for name, schema in list(value.properties.items())[:MAX_PARAMETERS]:
        inner = cache.value(str(name), schema, value.document)
        kinds = _findings(vocabulary, inner, depth + 1, cache).kinds
        fields.append(
            (
                normal_name(str(name)) or str(name),
                FieldShape(
                    kind=kinds[0].kind if kinds else None,
                    types=inner.types,
                    many=inner.many,
                    required=str(name) in required,
                ),
            )
        )
    return RecordShape(tuple(fields))


def _refined(
    vocabulary: Vocabulary, found: tuple[InferredKind, ...], description: str, where: str
) -> tuple[InferredKind, ...]:
    """The best kind replaced by the most specific subkind ``description`` names, when the
    subkinds it names lie on one line of the lattice (a "file or directory" refines nothing);
    when they do not, its first sentence alone is read."""
    if not found or not description:
        return found
    best = found[0]
    hits: list[tuple[int, int, str, Evidence]] = []
    for name in vocabulary.descendants(best.kind):
        kind = vocabulary.kind(name)
        for phrase in kind.rules.phrases:
            match = phrase.search(description)
            if match is not None:
                evidence = Evidence(
                    "refine", name, phrase.pattern, match.group(), where, CONFIDENCE["refine"]
                )
                hits.append((match.start(), -vocabulary.depth(name), name, evidence))
                break
    if not hits:
        return found
    _, _, name, evidence = min(hits)
    if any(other != name and not vocabulary.is_subkind(name, other) for _, _, other, _ in hits):
        lead = first_sentence(description)  # what the tool does, said first, may settle it
        if lead and lead != description:
            return _refined(vocabulary, found, lead, where)
        return found  # the description names subkinds of two branches: no refinement
    inherited = [e for e in best.evidence]
    refined = combine([evidence, *inherited], vocabulary, many=best.many, fields=best.fields)
    chosen = next((k for k in refined if k.kind == name), None)
    if chosen is None:
        return found
    return (chosen, *(k for k in found[1:] if k.kind != name))


def _groups(
    vocabulary: Vocabulary, parameters: list[tuple[str, ParameterKinds, Value]]
) -> tuple[InferredKind, ...]:
    """Record kinds made by several parameters together; a group whose parameters all belong
    to a larger group found first is left out."""
    shape = RecordShape(
        tuple(
            (
                value.name or name,
                FieldShape(
                    kind=p.best.kind if p.best else None,
                    types=value.types,
                    many=value.many,
                    required=True,
                ),
            )
            for name, p, value in parameters
        )
    )
    original = {value.name or name: name for name, _, value in parameters}
    candidates: list[tuple[int, str, tuple[str, ...], Evidence]] = []
    for kind in vocabulary:
        fields = kind.rules.fields
        if not fields:
            continue
        wanted = RecordShape(
            tuple(
                (name, FieldShape(kind=None if of == ANY else of, required=required))
                for name, of, required in fields
            )
        )
        for prefix, group in prefixed_groups(shape, [name for name, _, _ in fields]):
            fit = record_fit(group, wanted, vocabulary)
            if fit is None:
                continue
            members = tuple(
                original[f"{prefix}_{produced}" if prefix else produced]
                for _, produced in fit.mapping
            )
            rule_text = ", ".join(f"{n}: {k}" for n, k, _ in fields)
            evidence = Evidence(
                "fields",
                kind.name,
                rule_text,
                ", ".join(members),
                "inputSchema/properties",
                CONFIDENCE["fields"] * fit.score,
            )
            candidates.append((len(members), kind.name, members, evidence))
    chosen: list[InferredKind] = []
    taken: set[str] = set()
    for _, _name, members, evidence in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if set(members) <= taken:
            continue
        taken.update(members)
        chosen.extend(combine([evidence], vocabulary, fields=members))
    return tuple(chosen)


def _inputs(
    vocabulary: Vocabulary,
    schema: Any,
    document: Any,
    description: str,
    cache: InferenceCache,
) -> tuple[tuple[ParameterKinds, ...], tuple[InferredKind, ...]]:
    parameters: list[tuple[str, ParameterKinds, Value]] = []
    refining = before_result(first_sentence(description))
    for name, sub, required in list(object_properties(schema, document))[:MAX_PARAMETERS]:
        value = cache.value(name, sub, document)
        found = located(
            _findings(vocabulary, value, 1, cache).kinds, f"inputSchema/properties/{name}"
        )
        if not value.described and not OUTPUT_PARAMETER.search(value.name):
            found = _refined(vocabulary, found, refining, "description")
        parameters.append((name, ParameterKinds(name, required, found), value))
    groups = _groups(vocabulary, parameters) if len(parameters) >= 2 else ()
    return tuple(p for _, p, _ in parameters), groups


def _unwrapped_output(schema: Any, document: Any) -> Mapping[str, Any] | None:
    """The output schema with a lone wrapper property taken off."""
    root = unwrap(schema, document)
    for _ in range(2):
        if root is None:
            return None
        properties = root.get("properties")
        if not (isinstance(properties, Mapping) and len(properties) == 1):
            return root
        ((only, inner),) = properties.items()
        if str(only).lower() not in WRAPPERS:
            return root
        wrapped = unwrap(inner, document)
        if wrapped is None:
            return root
        about = text_of(root.get("description"))
        root = (
            {**wrapped, "description": about} if about and "description" not in wrapped else wrapped
        )
    return root


def _clause_evidence(vocabulary: Vocabulary, clauses: list[Clause]) -> list[Evidence]:
    found: list[Evidence] = []
    locators = {
        k for name in LOCATORS if name in vocabulary for k in (name, *vocabulary.descendants(name))
    }
    for clause in clauses:
        heads = head_ends(clause.text)
        for kind in vocabulary.index.phrase_kinds(clause.text):
            if clause.locator_source and kind.name in locators:
                continue
            found.extend(
                phrase_evidence(kind, clause.text, clause.where, clause.confidence, heads=heads)
            )
    return found


def _is_file(vocabulary: Vocabulary, kind: str) -> bool:
    return kind == "Path" or any(vocabulary.is_subkind(kind, f) for f in FILES if f in vocabulary)


def effect_evidence(
    vocabulary: Vocabulary, name: str, description: str, inputs: tuple[ParameterKinds, ...]
) -> list[Evidence]:
    """What a tool writes: the file a parameter named for it (``output_path``, ``destination``)
    names (rule ``writes``); else, for a tool whose name or description starts with a verb
    that changes things ("add", "write", "delete", "commit"...), the file it is given and
    changes (rule ``changes``), so that editing steps chain."""
    writes = [
        p
        for p in inputs
        if p.best is not None
        and _is_file(vocabulary, p.best.kind)
        and OUTPUT_PARAMETER.search(normal_name(p.name))
    ]
    if writes:
        p = writes[0]
        assert p.best is not None
        return [
            Evidence(
                "writes",
                p.best.kind,
                OUTPUT_PARAMETER.pattern,
                p.name,
                f"inputSchema/properties/{p.name}",
                CONFIDENCE["writes"],
            )
        ]
    words = normal_name(name).split("_") if name else []
    lead = first_sentence(description).split(maxsplit=1)
    verb = next((w for w in [*(lead[:1]), *words] if CHANGING.match(w)), None)
    if verb is None:
        return []
    for p in inputs:
        if (
            p.required
            and p.best is not None
            and _is_file(vocabulary, p.best.kind)
            and not SOURCE_PARAMETER.search(normal_name(p.name))
        ):
            return [
                Evidence(
                    "changes",
                    p.best.kind,
                    CHANGING.pattern[:60] + "...",
                    f"{verb} {p.name}",
                    f"inputSchema/properties/{p.name}",
                    CONFIDENCE["changes"],
                )
            ]
    return []


def _outputs(
    vocabulary: Vocabulary,
    name: str,
    description: str,
    schema: Any,
    output_description: str,
    document: Any,
    inputs: tuple[ParameterKinds, ...],
    cache: InferenceCache,
) -> tuple[tuple[InferredKind, ...], RecordShape | None]:
    evidence: list[Evidence] = effect_evidence(vocabulary, name, description, inputs)
    record: RecordShape | None = None
    many = False
    root = _unwrapped_output(schema, document)
    if root is not None:
        value = value_of("", root, document, "")
        many = value.many
        found = _findings(vocabulary, value, 0, cache)
        record = found.record
        evidence.extend(replace(e, where="outputSchema" + e.where) for e in found.evidence)
    if output_description:
        for kind in vocabulary.index.phrase_kinds(output_description[:MAX_TEXT]):
            evidence.extend(
                phrase_evidence(
                    kind,
                    output_description[:MAX_TEXT],
                    "response/description",
                    CONFIDENCE["phrases"],
                )
            )
    clauses = description_clauses(description)
    named = name_clause(name) if name else None
    if named is not None:
        clauses.append(named)
    evidence.extend(_clause_evidence(vocabulary, clauses))
    return combine(evidence, vocabulary, many=many), record


def infer_tool_kinds(
    vocabulary: Vocabulary,
    *,
    name: str = "",
    description: str = "",
    input_schema: Any = None,
    output_schema: Any = None,
    output_description: str = "",
    document: Any = None,
    cache: InferenceCache | None = None,
) -> ToolKinds:
    """The input and output kinds of one tool (an MCP tool, an OpenAPI operation read with
    ``lgent.kinds.operations``, a function definition). ``document`` is where ``$ref`` point
    (an OpenAPI document; by default each schema itself). ``cache``: a memo shared by the
    tools of one import (``lgent.kinds.cache``; the answer is the same with or without)."""
    description = text_of(description)
    cache = InferenceCache() if cache is None else cache
    cache.bind(document)
    inputs, groups = _inputs(
        vocabulary,
        input_schema,
        input_schema if document is None else document,
        description,
        cache,
    )
    outputs, record = _outputs(
        vocabulary,
        name if isinstance(name, str) else "",
        description,
        output_schema,
        text_of(output_description),
        output_schema if document is None else document,
        inputs,
        cache,
    )
    return ToolKinds(inputs=inputs, groups=groups, outputs=outputs, output_record=record)


__all__ = [
    "CHANGING",
    "FILES",
    "LOCATORS",
    "MAX_PARAMETERS",
    "MAX_RECORD_DEPTH",
    "OUTPUT_PARAMETER",
    "SOURCE_PARAMETER",
    "WRAPPERS",
    "effect_evidence",
    "infer_tool_kinds",
    "record_shape",
]
