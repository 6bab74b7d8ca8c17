"""Types from JSON Schemas: what an imported artifact's input and output types are.

The rules (docs/importing.md shows them with examples):

* A **named schema** becomes a type namespaced by its source: a ``$ref`` to
  ``#/components/schemas/Pet``, ``#/definitions/Pet`` or ``#/$defs/Pet`` in the source ``petstore``
  is ``petstore.Pet``; so is an object schema with ``"title": "Pet"``. Two sources' ``Pet`` stay
  apart. A named schema whose ``allOf`` names other schemas is declared their **subtype**.
* An **array** of ``T`` is ``List[T]``.
* JSON **primitives** and common **formats** are shared base types, the same for every source:
  ``json.string``, ``json.number``, ``json.integer`` (a subtype of ``json.number``),
  ``json.boolean``, ``json.binary``, and the string formats ``json.date-time``, ``json.date``,
  ``json.uri``, ``json.email``, ``json.uuid`` (subtypes of ``json.string``). They are declared
  *primitive*: the graph brain never chains two artifacts through one (see ``compose.py``).
* ``anyOf``/``oneOf`` with ``null`` is the other member; a single-member ``allOf`` is that member.
* Anything else (an anonymous object, a union of several types, an external ``$ref``) has **no
  type**: the artifact keeps its description and keywords, and the graph leaves it out of types.

A ``$ref`` to nowhere or a cycle of ``$ref`` aliases is a warning naming the JSON pointer, and the
schema has no type; an ``allOf`` cycle between named schemas drops the edge that closes it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from lgent.limits import MAX_DESCRIPTION_LENGTH, MAX_TYPE_NAME_LENGTH
from lgent.models import TypeDecl

LIST = "List"
STRING, NUMBER, INTEGER, BOOLEAN, BINARY = (
    "json.string",
    "json.number",
    "json.integer",
    "json.boolean",
    "json.binary",
)
_FORMATS = {
    "date-time": "json.date-time",
    "date": "json.date",
    "uri": "json.uri",
    "url": "json.uri",
    "iri": "json.uri",
    "email": "json.email",
    "idn-email": "json.email",
    "uuid": "json.uuid",
    "binary": BINARY,
}
_PRIMITIVE_DECLS: dict[str, tuple[tuple[str, ...], str]] = {
    STRING: ((), "A JSON string."),
    NUMBER: ((), "A JSON number."),
    INTEGER: ((NUMBER,), "A JSON integer."),
    BOOLEAN: ((), "A JSON boolean."),
    BINARY: ((), "Raw bytes: a file or a binary string."),
    "json.date-time": ((STRING,), "A string holding an RFC 3339 date and time."),
    "json.date": ((STRING,), "A string holding an RFC 3339 full date."),
    "json.uri": ((STRING,), "A string holding a URI."),
    "json.email": ((STRING,), "A string holding an email address."),
    "json.uuid": ((STRING,), "A string holding a UUID."),
}
SHARED_TYPES = frozenset({LIST, *_PRIMITIVE_DECLS})
"""Names every source shares: declared by an import only where the catalog lacks them."""

_NAMED_CONTAINERS = ("components/schemas/", "definitions/", "$defs/", "definitions/schemas/")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")
MAX_DEPTH = 16


def type_name_part(text: str) -> str:
    """``text`` as a piece of a type name: ASCII letters, digits and ``_ . -`` only, starting with
    a letter or ``_``; a short hash is added when characters had to be replaced, so two names that
    differ only there stay apart."""
    plain = text.replace("/", "_").replace(":", "_")
    safe = _UNSAFE.sub("_", plain).strip("_.-") or "_"
    if safe != plain:
        safe = f"{safe}_{hashlib.sha256(text.encode('utf-8')).hexdigest()[:6]}"
    return safe if safe[0].isalpha() or safe[0] == "_" else f"_{safe}"


def shared_declarations() -> list[TypeDecl]:
    """The declarations of the shared base types."""
    decls = [TypeDecl(type=LIST, params=1, description="An ordered collection of values.")]
    for name, (parents, description) in _PRIMITIVE_DECLS.items():
        decls.append(
            TypeDecl(type=name, subtype_of=parents, primitive=True, description=description)
        )
    return decls


class SchemaTyper:
    """Maps the schemas of one source document to type expressions and collects the declarations
    of the named types it used. ``warn`` hears every schema that could not be typed, with its
    JSON pointer."""

    def __init__(
        self, namespace: str, document: Any, warn: Callable[[str], None], source: str = ""
    ) -> None:
        self.namespace = type_name_part(namespace)
        self.document = document
        self.base = ""
        self.source = source
        self._warn = warn
        self._declared: dict[str, TypeDecl] = {}
        self._declaring: set[str] = set()
        self._shared: set[str] = set()

    def rebase(self, document: Any, base: str) -> None:
        """Resolve ``$ref`` in ``document`` from now on, which sits at pointer ``base`` of the
        source (an MCP tool's schema is a document of its own)."""
        self.document, self.base = document, base

    def warn(self, message: str) -> None:
        self._warn(f"{self.source}#{message}" if self.source else message)

    def declarations(self) -> list[TypeDecl]:
        """The shared base types used (in a fixed order), then the named ones, by name."""
        shared = [d for d in shared_declarations() if d.type in self._shared]
        return [*shared, *(self._declared[n] for n in sorted(self._declared))]

    def type_of(self, schema: Any, at: str, depth: int = 0) -> str | None:
        """The type of ``schema`` (found at JSON pointer ``at``), or None (see the rules)."""
        if not isinstance(schema, dict):
            return None
        if depth > MAX_DEPTH:
            self.warn(
                f"{at}: schemas nested (through $ref, allOf, items) deeper than {MAX_DEPTH}; no type"
            )
            return None
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._ref_type(ref, at, depth)
        for key in ("allOf", "anyOf", "oneOf"):
            members = schema.get(key)
            if isinstance(members, list) and members:
                kept = [m for m in members if not _is_null(m)]
                if len(kept) == 1:
                    return self.type_of(kept[0], f"{at}/{key}/{members.index(kept[0])}", depth + 1)
                if key == "allOf" and "title" in schema:
                    return self._titled(schema, at, depth)
                return None
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"]
            kind = kinds[0] if len(kinds) == 1 else None
        enum = schema.get("enum")
        if (
            kind is None
            and isinstance(enum, list)
            and enum
            and all(isinstance(v, str) for v in enum)
        ):
            kind = "string"
        if kind is None and ("properties" in schema or "title" in schema):
            kind = "object"
        if kind == "array":
            item = self.type_of(schema.get("items"), f"{at}/items", depth + 1)
            return self._shared_use(f"{LIST}[{item}]", LIST) if item is not None else None
        if kind == "object":
            return self._titled(schema, at, depth) if isinstance(schema.get("title"), str) else None
        return self._primitive(kind, schema.get("format"))

    def _primitive(self, kind: Any, fmt: Any) -> str | None:
        if kind == "string":
            name = _FORMATS.get(fmt, STRING) if isinstance(fmt, str) else STRING
        elif kind == "file":  # Swagger 2.0 form upload
            name = BINARY
        else:
            found = {"integer": INTEGER, "number": NUMBER, "boolean": BOOLEAN}.get(str(kind))
            if found is None:
                return None
            name = found
        return self._shared_use(name, name)

    def _shared_use(self, expr: str, *names: str) -> str | None:
        if len(expr) > MAX_TYPE_NAME_LENGTH:
            return None
        for name in names:
            self._shared.add(name)
            if name in _PRIMITIVE_DECLS:
                self._shared.update(_PRIMITIVE_DECLS[name][0])
        return expr

    def _ref_type(self, ref: str, at: str, depth: int) -> str | None:
        seen = [ref]
        while True:
            if not ref.startswith("#"):
                self.warn(f"{at}: external $ref {ref!r} is not followed; no type")
                return None
            target = resolve_ref(self.document, ref)
            if target is _MISSING:
                self.warn(f"{at}: $ref {ref!r} points to nowhere; no type")
                return None
            if isinstance(target, dict) and isinstance(target.get("$ref"), str):
                ref = target["$ref"]  # an alias: follow it
                if ref in seen:
                    self.warn(f"{at}: $ref cycle {' -> '.join([*seen, ref])}; no type")
                    return None
                seen.append(ref)
                continue
            break
        name = _named(ref)
        if name is None or not isinstance(target, dict) or _is_primitive_schema(target):
            return (
                self.type_of(target, self.base + ref[1:], depth + 1)
                if isinstance(target, dict)
                else None
            )
        return self._declare(name, target, self.base + ref[1:], depth)

    def _titled(self, schema: dict[str, Any], at: str, depth: int) -> str | None:
        title = schema.get("title")
        if not isinstance(title, str) or not title.strip():
            return None
        return self._declare(title.strip(), schema, at, depth)

    def _declare(self, name: str, schema: dict[str, Any], at: str, depth: int) -> str | None:
        full = f"{self.namespace}.{type_name_part(name)}"
        if len(full) > MAX_TYPE_NAME_LENGTH - 10:
            return None
        if full in self._declared or full in self._declaring:
            return full
        self._declaring.add(full)
        parents: list[str] = []
        members = schema.get("allOf")
        if isinstance(members, list):
            for index, member in enumerate(members):
                if isinstance(member, dict) and "$ref" in member:
                    parent = self.type_of(member, f"{at}/allOf/{index}", depth + 1)
                    if parent is None or "[" in parent:
                        continue
                    if parent in self._declaring:
                        self.warn(f"{at}: allOf cycle through {parent}; that supertype is dropped")
                        continue
                    parents.append(parent)
        self._declaring.discard(full)
        description = schema.get("description")
        self._declared[full] = TypeDecl(
            type=full,
            subtype_of=tuple(parents),
            description=clean_description(description) if isinstance(description, str) else "",
        )
        return full


class _Missing:
    pass


_MISSING: Any = _Missing()


def resolve_ref(document: Any, ref: str) -> Any:
    """The value a local ``#/a/b`` reference points at, or ``_MISSING``."""
    if ref == "#":
        return document
    if not ref.startswith("#/"):
        return _MISSING
    node = document
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _MISSING
    return node


def _named(ref: str) -> str | None:
    """The schema name of a reference into a named-schema container, or None."""
    path = ref[2:] if ref.startswith("#/") else ""
    for container in _NAMED_CONTAINERS:
        if path.startswith(container) and "/" not in path[len(container) :]:
            return path[len(container) :].replace("~1", "/").replace("~0", "~")
    return None


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null"


def _is_primitive_schema(schema: dict[str, Any]) -> bool:
    """A named schema that is only a primitive (``UserId: {type: string}``) is that primitive."""
    return schema.get("type") in ("string", "integer", "number", "boolean") and not any(
        key in schema for key in ("properties", "allOf", "anyOf", "oneOf")
    )


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]+")
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""The invisible characters that reorder the text around them (U+202E RIGHT-TO-LEFT OVERRIDE
makes ``exe.txt`` show as ``txt.exe``): never kept in a one-line field."""


def clean_description(text: str) -> str:
    """``text`` fit for a description: control characters dropped, cut at the length limit."""
    return cut_description(text)[0]


def cut_description(text: str) -> tuple[str, int]:
    """``clean_description(text)``, and the length it had before it was cut (0: not cut)."""
    cleaned = _CONTROL.sub("", text).strip()
    if len(cleaned) > MAX_DESCRIPTION_LENGTH:
        return cleaned[: MAX_DESCRIPTION_LENGTH - 1].rstrip() + "…", len(cleaned)
    return cleaned, 0


def clean_line(text: str, limit: int) -> str:
    """``text`` fit for a one-line field (name, keyword): control runs become a space,
    bidirectional controls are dropped, cut at ``limit``."""
    cleaned = " ".join(_CONTROL_LINE.sub(" ", BIDI_CONTROLS.sub("", text)).split())
    return cleaned[:limit].rstrip()


__all__ = [
    "BIDI_CONTROLS",
    "SHARED_TYPES",
    "SchemaTyper",
    "clean_description",
    "clean_line",
    "cut_description",
    "shared_declarations",
    "type_name_part",
]
