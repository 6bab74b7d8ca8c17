"""The external development sets under ``../shared/quality/``: tools, sampled queries, judgments.

Each set is read in place (never copied into the repository). Query samples follow the sets'
READMEs: ``random.Random(seed).sample`` over the queries in file order, and the README's sha1
prefix is that of the sampled qids, sorted, one per line (``qid_digest``).

``tool_entry`` turns a tool record into an L-gent ``CatalogEntry`` from what a real tool carries
(name, description, category, parameter and output names; in ``rich`` mode also the parameters'
types and descriptions in the description), and the value kinds its documented parameters and
result give, inferred as an import infers them (``tool_kinds``). Judgments never reach the
catalog.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from lgent import limits
from lgent.catalog.kind_inference import KindInference
from lgent.catalog.readers.parameters import (
    parameters_paragraph,
    results_paragraph,
    with_paragraphs,
)
from lgent.ids import normalise_id
from lgent.models import CatalogEntry

SHARED_ENV = "LGENT_SHARED"
_REPO = Path(__file__).resolve().parents[1]
SHARED_CANDIDATES = (_REPO.parent / "shared", _REPO.parent.parent / "shared")
"""``../shared`` beside the repository (or beside the folder of worktrees it sits in)."""

EntryText = Literal["plain", "basic", "rich"]


@dataclass(frozen=True, slots=True)
class SetSpec:
    """One development set as its README defines it."""

    name: str
    folder: str
    kind: str | None
    """Only queries of this ``kind`` (MetaTool's single/multi); None: all."""
    sample: int | None
    """The README's sample size (None: every query)."""
    digest: str | None
    """The README's sha1 prefix of the sampled qid list, when it gives one."""
    baseline_text: Literal["name_description", "flattened"]
    reference: Mapping[str, Mapping[str, float]]
    """The README's reference figures: method -> metric -> value (percent)."""


def _ref(*rows: tuple[str, float, float, float, float]) -> dict[str, dict[str, float]]:
    return {
        method: {"ndcg@10": n, "recall@5": r5, "recall@10": r10, "c@10": c}
        for method, n, r5, r10, c in rows
    }


SETS: Mapping[str, SetSpec] = {
    "metatool-single": SetSpec(
        "metatool-single",
        "metatool",
        "single",
        3000,
        "ba4cb4a8",
        "name_description",
        _ref(
            ("bm25", 42.34, 46.70, 52.93, 52.93),
            ("minilm", 66.30, 73.90, 80.97, 80.97),
            ("rrf", 58.97, 65.87, 76.87, 76.87),
        ),
    ),
    "metatool-multi": SetSpec(
        "metatool-multi",
        "metatool",
        "multi",
        None,
        None,
        "name_description",
        _ref(
            ("bm25", 31.10, 30.58, 42.35, 15.69),
            ("minilm", 54.96, 56.34, 71.83, 51.91),
            ("rrf", 57.46, 56.24, 75.05, 54.12),
        ),
    ),
    "toollens-train": SetSpec(
        "toollens-train",
        "toollens-train",
        None,
        2000,
        "a02c6931",
        "flattened",
        _ref(
            ("bm25", 35.19, 31.98, 38.84, 12.40),
            ("minilm", 32.48, 29.53, 39.84, 13.20),
            ("rrf", 38.05, 35.04, 43.48, 16.35),
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class Query:
    qid: str
    text: str
    relevant: frozenset[str]


@dataclass(frozen=True, slots=True)
class DevSet:
    spec: SetSpec
    tools: tuple[dict[str, Any], ...]
    queries: tuple[Query, ...]
    digest: str
    """sha1 of the sorted sampled qids, one per line."""
    total_queries: int
    """Queries of this set before sampling."""
    seed: int = 0

    @property
    def digest_matches(self) -> bool | None:
        """Whether the sample is the README's (None: the README gives no digest, or the
        sample size differs from the README's)."""
        if self.spec.digest is None or len(self.queries) != self.spec.sample or self.seed != 0:
            return None
        return self.digest.startswith(self.spec.digest)


def shared_root() -> Path:
    """``$LGENT_SHARED`` if set, else the first of ``SHARED_CANDIDATES`` that exists."""
    if os.environ.get(SHARED_ENV):
        return Path(os.environ[SHARED_ENV])
    return next((p for p in SHARED_CANDIDATES if p.is_dir()), SHARED_CANDIDATES[0])


def available(root: Path | None = None) -> bool:
    base = (root or shared_root()) / "quality"
    return all((base / spec.folder / "tools.jsonl").is_file() for spec in SETS.values())


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def qid_digest(qids: Sequence[str]) -> str:
    """sha1 of the qids sorted, one per line (how the READMEs name a sample)."""
    return hashlib.sha1("\n".join(sorted(qids)).encode("utf-8")).hexdigest()


def sample(items: Sequence[Any], size: int | None, seed: int = 0) -> list[Any]:
    """``random.Random(seed).sample`` over ``items`` in their order; all of them when ``size``
    is None or not smaller."""
    if size is None or size >= len(items):
        return list(items)
    return random.Random(seed).sample(list(items), size)


def load_set(name: str, root: Path | None = None, size: int | None = -1, seed: int = 0) -> DevSet:
    """The set ``name`` with ``size`` sampled queries (-1: the README's size; None: all)."""
    spec = SETS[name]
    folder = (root or shared_root()) / "quality" / spec.folder
    tools = tuple(_jsonl(folder / "tools.jsonl"))
    relevant: dict[str, set[str]] = {}
    with (folder / "qrels.tsv").open(encoding="utf-8") as rows:
        next(rows)
        for row in rows:
            qid, tool_id, grade = row.rstrip("\n").split("\t")
            if int(grade) > 0:
                relevant.setdefault(qid, set()).add(tool_id)
    queries = [
        q for q in _jsonl(folder / "queries.jsonl") if spec.kind is None or q["kind"] == spec.kind
    ]
    chosen = sample(queries, spec.sample if size == -1 else size, seed)
    picked = tuple(
        Query(q["qid"], q["text"], frozenset(relevant[q["qid"]]))
        for q in chosen
        if relevant.get(q["qid"])
    )
    digest = qid_digest([q.qid for q in picked])
    return DevSet(spec, tools, picked, digest, len(queries), seed)


# -- the reference baselines' tool text ---------------------------------------------------------


def baseline_text(tool: Mapping[str, Any], style: str) -> str:
    """The text the README's baselines index: ``name. description`` (MetaTool), or that
    flattened with the category, inputs and outputs (ToolLens): ``name. description. Category:
    c. Inputs: p (type): text; .... Outputs: o (type); ...`` (this layout reproduces the
    README's figures exactly)."""
    text = f"{tool['name']}. {tool['description']}"
    if style == "name_description":
        return text
    parts = [text]
    if tool.get("category"):
        parts.append(f"Category: {tool['category']}")
    if tool.get("inputs"):
        parts.append("Inputs: " + "; ".join(_parameter(p) for p in tool["inputs"]))
    if tool.get("outputs"):
        parts.append("Outputs: " + "; ".join(f"{o['name']} ({o['type']})" for o in tool["outputs"]))
    return ". ".join(parts)


def _parameter(p: Mapping[str, Any]) -> str:
    described = f": {p['description']}" if p.get("description") else ""
    return f"{p['name']} ({p.get('type', '')}){described}"


# -- tools as catalog entries -------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


def entry_id(tool_id: str) -> str:
    """A valid artifact id for ``tool_id`` (the catalog's own normal form, ``lgent.ids``)."""
    return normalise_id(tool_id) or "tool"


def _one_line(text: str, limit: int) -> str:
    return _SPACES.sub(" ", text).strip()[:limit]


def _about(parameter: Mapping[str, Any]) -> dict[str, str]:
    about = parameter.get("description")
    return {"description": str(about)} if about else {}


def _as_schema(value: Any) -> dict[str, Any]:
    """A ToolLens return-schema value as JSON Schema: a mapping is an object of those
    properties, a list an array of its first item, a string its type's first word."""
    if isinstance(value, Mapping):
        return {"type": "object", "properties": {str(k): _as_schema(v) for k, v in value.items()}}
    if isinstance(value, list):
        return {"type": "array", **({"items": _as_schema(value[0])} if value else {})}
    return {"type": str(value).split()[0].lower()} if str(value).strip() else {}


RETURN_SCHEMA = "return_schema: "
"""Where a ToolLens tool's ``doc`` (the text COLT indexes) gives its whole return schema, as
JSON, to its end; the record's ``outputs`` keep only the top-level fields."""


def return_properties(tool: Mapping[str, Any]) -> dict[str, Any]:
    """The properties of a tool's whole return schema (nested objects kept), from its ``doc``;
    {} when it gives none."""
    doc = str(tool.get("doc", ""))
    at = doc.find(RETURN_SCHEMA)
    if at < 0:
        return {}
    try:
        value = json.loads(doc[at + len(RETURN_SCHEMA) :])
    except ValueError:
        return {}
    return _as_schema(value)["properties"] if isinstance(value, Mapping) else {}


JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})


def _json_type(written: Any) -> dict[str, str]:
    """A record's parameter type (``STRING``, ``NUMBER``...) as a JSON Schema ``type``, when it
    is one."""
    found = str(written or "").split()[0].lower() if str(written or "").strip() else ""
    return {"type": found} if found in JSON_TYPES else {}


def tool_schemas(tool: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The tool's documented parameters as an input JSON Schema (names, types, descriptions,
    which are required) and its documented result as an output schema (the whole return
    schema where the record gives one, else its output fields; None when it documents none)."""
    parameters = {
        str(p.get("name", "")): {**_json_type(p.get("type")), **_about(p)}
        for p in tool.get("inputs", ())
        if p.get("name")
    }
    required = [
        str(p["name"]) for p in tool.get("inputs", ()) if p.get("required") and p.get("name")
    ]
    inputs: dict[str, Any] = {"type": "object", "properties": parameters}
    if required:
        inputs["required"] = required
    fields = return_properties(tool) or {
        str(o.get("name", "")): _json_type(o.get("type"))
        for o in tool.get("outputs", ())
        if o.get("name")
    }
    return inputs, ({"type": "object", "properties": fields} if fields else None)


def tool_kinds(tool: Mapping[str, Any], inference: KindInference) -> dict[str, Any] | None:
    """The value kinds of a tool, inferred from its documentation alone (name, description,
    parameters, result: ``tool_schemas``), as an imported tool's; None when it documents no
    parameter and no result."""
    inputs, output = tool_schemas(tool)
    if not inputs["properties"] and output is None:
        return None
    return inference.tool_kinds(
        name=str(tool.get("api_name") or tool.get("name") or ""),
        description=str(tool.get("description", "")),
        input_schema=inputs,
        output_schema=output,
    )


def tool_entry(
    tool: Mapping[str, Any], mode: EntryText = "basic", inference: KindInference | None = None
) -> CatalogEntry:
    """A catalog entry for a tool record; with ``inference``, carrying the value kinds its
    documentation gives (``tool_kinds``).

    Keywords: the category, then the parameter names, then the output field names (the
    catalog's only list field; deduplicated, at most the catalog's limits). ``rich`` appends
    the parameters (name, type, description) and outputs (name, type, and the fields of a
    nested object, from the whole return schema where the record gives one:
    ``return_properties``) to the description as sentences, as the MCP importer writes an
    output schema; ``basic`` keeps the tool's own description; ``plain`` is the name and the
    description alone (no keywords)."""
    keywords: list[str] = []
    words = [tool.get("category") or ""]
    words += [p.get("name", "") for p in tool.get("inputs", ())]
    words += [o.get("name", "") for o in tool.get("outputs", ())]
    for word in words:
        word = _one_line(str(word), limits.MAX_KEYWORD_LENGTH)
        if mode == "plain":
            break
        if word and word not in keywords and len(keywords) < limits.MAX_KEYWORDS:
            keywords.append(word)
    description = str(tool.get("description", "")).strip()
    if mode == "rich":  # the importers' paragraphs (lgent/catalog/readers/parameters.py)
        inputs = {
            str(p.get("name", "")): {"type": str(p.get("type", "")).lower(), **_about(p)}
            for p in tool.get("inputs", ())
        }
        required = [str(p.get("name", "")) for p in tool.get("inputs", ()) if p.get("required")]
        outputs = return_properties(tool) or {
            str(o.get("name", "")): {"type": str(o.get("type", "")).lower()}
            for o in tool.get("outputs", ())
        }
        description = with_paragraphs(
            description,
            parameters_paragraph(inputs, required),
            results_paragraph({"properties": outputs}),
        )
    return CatalogEntry(
        id=entry_id(str(tool["id"])),
        name=_one_line(str(tool["name"]), limits.MAX_NAME_LENGTH),
        description=description[: limits.MAX_DESCRIPTION_LENGTH],
        keywords=tuple(keywords),
        kinds=None if inference is None else tool_kinds(tool, inference),
    )
