"""Catalog data models (pydantic v2): entries, relations and type declarations.

Construct them with ``CatalogEntry.parse(data)`` / ``TypeDecl.parse(data)`` (or the class
directly): either way a rule broken raises :class:`lgent.errors.ValidationError` naming the field,
never a pydantic error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, NamedTuple, Protocol, Self

import pydantic
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_validator,
)

from lgent import limits
from lgent.errors import FieldProblem, ValidationError
from lgent.ids import ID_RE, normalise_id
from lgent.origin import Origin
from lgent.typeexpr import validate_type

# Unicode categories Cc (C0, DEL, C1) and Cs (lone surrogates); tab, LF and CR allowed in prose;
# one-line fields also refuse the bidirectional controls (U+202E shows "exe.txt" as "txt.exe").
_CONTROL_ANY = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_CONTROL_MULTILINE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_VALIDATING: ContextVar[bool] = ContextVar("lgent_validating", default=False)


class EntityType(StrEnum):
    AGENT = "agent"
    TOOL = "tool"
    PROMPT = "prompt"
    PIPELINE = "pipeline"
    DATASET = "dataset"
    MODEL = "model"
    OTHER = "other"


class Status(StrEnum):
    ACTIVE = "active"
    EXPERIMENTAL = "experimental"
    DEPRECATED = "deprecated"
    RETIRED = "retired"
    DRAFT = "draft"
    """Not published yet: seen only by writers and readers scoped for drafts (``lgent.scopes``)
    until promoted (``LGent.promote``)."""


class Execution(StrEnum):
    LOCAL = "local"
    CLOUD = "cloud"
    HYBRID = "hybrid"


# How the entry holding a relation stands to its target: successor_to (replaced it), depends_on,
# forged_by (was made by it), implements, similar_to, part_of (a tool of a server, an operation of
# an API), and feeds: what this artifact returns can be passed to the target (an OpenAPI 3
# response link to another operation). A comment, not a docstring: a docstring would be sent in
# every JSON schema that holds a relation (the MCP tool list among them).
class RelationType(StrEnum):
    SUCCESSOR_TO = "successor_to"
    DEPENDS_ON = "depends_on"
    FORGED_BY = "forged_by"
    IMPLEMENTS = "implements"
    SIMILAR_TO = "similar_to"
    PART_OF = "part_of"
    FEEDS = "feeds"


def _check_text(value: str, *, multiline: bool) -> str:
    bad = (_CONTROL_MULTILINE if multiline else _CONTROL_ANY).search(value)
    if bad is not None:
        char = bad.group()
        kind = (
            "control character"
            if ord(char) < 0x200 or 0xD800 <= ord(char) < 0xE000
            else (f"bidirectional control character U+{ord(char):04X}")
        )
        raise ValueError(f"contains the {kind} {char!r} at offset {bad.start()}")
    return value


def _wrap_pydantic(err: pydantic.ValidationError, record_id: str | None) -> ValidationError:
    problems = []
    for item in err.errors(include_url=False):
        loc = ".".join(str(part) for part in item["loc"]) or "(entry)"
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown field"
        elif item["type"] == "missing":
            message = "is required"
        problems.append(FieldProblem(loc, message, item.get("input")))
    return ValidationError(problems, record_id=record_id)


@contextmanager
def _validating() -> Iterator[None]:
    """Inside: nested L-gent models leave their errors to pydantic, which names the whole path."""
    token = _VALIDATING.set(True)
    try:
        yield
    finally:
        _VALIDATING.reset(token)


class Container(BaseModel):
    """A plain pydantic model that holds L-gent models (a request, a query's arguments): a bad
    nested value is reported by pydantic with its whole location (``context.current_pipeline.1``)
    rather than as the nested model's own ``ValidationError``."""

    @model_validator(mode="wrap")
    @classmethod
    def _nested_in_place(cls, data: Any, handler: pydantic.ModelWrapValidatorHandler[Any]) -> Any:
        with _validating():
            return handler(data)


class _Model(BaseModel):
    """Shared config: unknown keys rejected, values re-validated on assignment, frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    def __init__(self, **data: Any) -> None:
        if _VALIDATING.get():  # nested model: let pydantic report it with its full location
            super().__init__(**data)
            return
        with _validating():
            try:
                super().__init__(**data)
            except pydantic.ValidationError as err:
                raw_id = data.get("id") if isinstance(data.get("id"), str) else None
                raise _wrap_pydantic(err, raw_id) from None

    def to_record(self) -> dict[str, Any]:
        """JSON-ready dict, ``None`` fields left out (round-trips through ``parse``)."""
        return self.model_dump(mode="json", exclude_none=True)

    @classmethod
    def parse(cls, data: Any, *, source: str | None = None, line: int | None = None) -> Self:
        """Validate ``data`` (a mapping) into a model; errors name the field and, if given, where."""
        if not isinstance(data, dict):
            raise ValidationError(
                [FieldProblem("(entry)", f"expected an object, got {type(data).__name__}")],
                source=source,
                line=line,
            )
        odd = [k for k in data if not isinstance(k, str)]
        if odd:
            raise ValidationError(
                [
                    FieldProblem(
                        repr(odd[0]),
                        f"keys must be strings, got {type(odd[0]).__name__} {odd[0]!r}",
                        odd[0],
                    )
                ],
                source=source,
                line=line,
            )
        try:
            return cls(**data)
        except ValidationError as err:
            raise err.located(source=source, line=line) from None


class Relation(_Model):
    """A typed edge from the entry that holds it to another artifact id."""

    type: RelationType
    target: str = Field(min_length=1, max_length=limits.MAX_ID_LENGTH)

    @field_validator("target")
    @classmethod
    def _target_is_id(cls, value: str) -> str:
        if not ID_RE.match(value):
            value = normalise_id(value) or value
        if not ID_RE.match(value):
            raise ValueError(f"{value!r} is not a valid artifact id")
        return value


class CatalogEntry(_Model):
    """One artifact of the catalog, at one version."""

    id: str = Field(min_length=1, max_length=limits.MAX_ID_LENGTH)
    name: str = Field(min_length=1, max_length=limits.MAX_NAME_LENGTH)
    entity_type: EntityType = EntityType.TOOL
    version: str = "0.1.0"
    description: str = Field(default="", max_length=limits.MAX_DESCRIPTION_LENGTH)
    keywords: tuple[str, ...] = Field(default=(), max_length=limits.MAX_KEYWORDS)
    author: str | None = Field(default=None, max_length=limits.MAX_NAME_LENGTH)
    status: Status = Status.ACTIVE
    input_type: str | None = Field(default=None, max_length=limits.MAX_TYPE_NAME_LENGTH)
    output_type: str | None = Field(default=None, max_length=limits.MAX_TYPE_NAME_LENGTH)
    contracts: tuple[str, ...] = Field(default=(), max_length=limits.MAX_CONTRACTS)
    success_rate: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    usage_count: int = Field(default=0, ge=0)
    last_used: datetime | None = None
    latency_ms: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    execution: Execution | None = None
    relations: tuple[Relation, ...] = Field(default=(), max_length=limits.MAX_RELATIONS)
    origin: Origin | None = None
    """How to call it and what its source said (imported artifacts; ``lgent.origin``)."""
    kinds: dict[str, Any] | None = None
    """The value kinds inferred from its schemas at import (``lgent.kinds.ToolKinds.to_dict``:
    each parameter's kinds, the records several parameters make, the output's kinds, each with
    its evidence and confidence). Declared ``input_type`` / ``output_type`` win over them."""

    @field_validator("kinds")
    @classmethod
    def _kinds_shape(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        from lgent.kinds.results import ToolKinds

        try:
            ToolKinds.from_dict(value)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(
                f"not a record of inferred kinds ({type(err).__name__}: {err})"
            ) from None
        return value

    def tool_kinds(self) -> Any:
        """The inferred kinds as ``lgent.kinds.ToolKinds`` (None when none were inferred)."""
        if self.kinds is None:
            return None
        from lgent.kinds.results import ToolKinds

        return ToolKinds.from_dict(self.kinds)

    @model_validator(mode="before")
    @classmethod
    def _real_world_id(cls, data: Any) -> Any:
        """An id such as ``Ant Design Components`` becomes its stable normal form
        (``lgent.ids``); the original is kept as the name when no name is given."""
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            original = data["id"].strip()
            stable = "" if ID_RE.match(original) else normalise_id(original)
            if stable and stable != original:
                data = {**data, "id": stable}
                if not data.get("name"):
                    data["name"] = original
        return data

    @field_validator("id")
    @classmethod
    def _valid_id(cls, value: str) -> str:
        if not ID_RE.match(value):
            raise ValueError(
                f"{value!r} is not a valid id (letters, digits and _ . : / + -; "
                "starting with a letter or digit)"
            )
        return value

    @field_validator("name", "author")
    @classmethod
    def _single_line(cls, value: str | None) -> str | None:
        return None if value is None else _check_text(value, multiline=False)

    @field_validator("description")
    @classmethod
    def _clean_description(cls, value: str) -> str:
        return _check_text(value, multiline=True)

    @field_validator("version", mode="before")
    @classmethod
    def _version_text(cls, value: Any) -> Any:
        """Any version text (``lgent.versions`` orders it); a number (``1.2`` in YAML) is read as
        the text it was written as."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        if not value:
            raise ValueError("is empty")
        if len(value) > limits.MAX_VERSION_LENGTH:
            raise ValueError(f"is longer than {limits.MAX_VERSION_LENGTH} characters")
        return _check_text(value, multiline=False)

    @field_validator("keywords", "contracts")
    @classmethod
    def _clean_words(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        cleaned: list[str] = []
        for word in value:
            word = _check_text(word.strip(), multiline=False)
            if not word:
                raise ValueError("contains an empty string")
            if len(word) > limits.MAX_KEYWORD_LENGTH:
                raise ValueError(f"an item is longer than {limits.MAX_KEYWORD_LENGTH} characters")
            if word not in cleaned:
                cleaned.append(word)
        return tuple(cleaned)

    @field_validator("input_type", "output_type")
    @classmethod
    def _type_name(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        try:
            return validate_type(value)
        except ValueError as err:
            raise ValueError(
                f"{value!r} is not a type name such as PDF or List[Document]: {err}"
            ) from None

    @field_validator("last_used")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value

    def relation_targets(self, kind: RelationType) -> list[str]:
        """Ids this entry points at with relations of ``kind``."""
        return [r.target for r in self.relations if r.type == kind]

    def callable_definition(self) -> dict[str, Any] | None:
        """How to call this artifact, in its ecosystem's own shape (an MCP ``Tool`` and its
        server's launch, an OpenAI-style function with method, path and base URL), or None
        when its source said nothing of it (``lgent.callables``)."""
        from lgent.callables import callable_definition

        return callable_definition(self)


class EntryText(Protocol):
    """The fields of an entry that explanations read (highlights and matched fields). A
    ``CatalogEntry`` is one; so is ``StoredText``, which a search decodes for the hits it
    shows without validating each whole entry again."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def entity_type(self) -> EntityType: ...
    @property
    def version(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def keywords(self) -> tuple[str, ...]: ...
    @property
    def author(self) -> str | None: ...
    @property
    def status(self) -> Status: ...
    @property
    def input_type(self) -> str | None: ...
    @property
    def output_type(self) -> str | None: ...
    @property
    def execution(self) -> Execution | None: ...


_DEFAULT_TYPE = CatalogEntry.model_fields["entity_type"].default
_DEFAULT_VERSION = CatalogEntry.model_fields["version"].default
_DEFAULT_STATUS = CatalogEntry.model_fields["status"].default


class StoredText(NamedTuple):
    """An ``EntryText`` read from a stored record (``CatalogEntry.to_record()``), which was
    validated when it was stored: the same values as the decoded entry, without its other
    fields and without validating it again (``StoredText.of``)."""

    id: str
    name: str
    entity_type: EntityType
    version: str
    description: str
    keywords: tuple[str, ...]
    author: str | None
    status: Status
    input_type: str | None
    output_type: str | None
    execution: Execution | None

    @classmethod
    def of(cls, record: dict[str, Any]) -> StoredText:
        """The text fields of a stored record; ValueError when one is missing or of the wrong
        type (the record was not written by ``to_record``)."""
        get = record.get
        name, version, description = (
            record["name"],
            get("version", _DEFAULT_VERSION),
            get("description", ""),
        )
        keywords = get("keywords", [])
        if type(keywords) is not list:
            raise ValueError("the keywords are not a list")
        keywords = tuple(keywords)
        author, input_type, output_type = get("author"), get("input_type"), get("output_type")
        execution = get("execution")
        if not (
            type(name) is str
            and type(version) is str
            and type(description) is str
            and all(type(k) is str for k in keywords)
            and (author is None or type(author) is str)
            and (input_type is None or type(input_type) is str)
            and (output_type is None or type(output_type) is str)
            and type(record["id"]) is str
        ):
            raise ValueError("a text field holds something other than text")
        return cls(
            record["id"],
            name,
            EntityType(get("entity_type", _DEFAULT_TYPE)),
            version,
            description,
            keywords,
            author,
            Status(get("status", _DEFAULT_STATUS)),
            input_type,
            output_type,
            None if execution is None else Execution(execution),
        )


_Rule = Annotated[str, Field(min_length=1, max_length=limits.MAX_RULE_LENGTH)]
_Rules = Annotated[tuple[_Rule, ...], Field(max_length=limits.MAX_EVIDENCE_RULES)]


def _compiled(value: tuple[str, ...], flags: int = 0) -> tuple[str, ...]:
    for rule in value:
        try:
            re.compile(rule, flags)
        except re.error as err:
            raise ValueError(f"{rule!r} is not a regular expression: {err}") from None
    return value


class KindEvidence(_Model):
    """How a value of a *kind* (a real-world value type: a URL, a PDF path, a currency code)
    shows in a JSON Schema: the rules kind inference reads (``lgent.kinds``; the rules and their
    confidences are in docs/importing.md). Every list is optional; regular expressions are
    Python ``re`` syntax and must compile."""

    json_type: Literal["string", "number", "integer", "boolean", "object", "array"] | None = None
    """The JSON type a value of the kind has; a schema of another type never gets the kind."""
    formats: _Rules = ()
    """JSON Schema ``format`` values, compared without case (``uri``, ``date-time``)."""
    names: _Rules = ()
    """Property-name patterns, matched whole (case ignored) against the name in snake case:
    ``fileAbsolutePath`` is read as ``file_absolute_path``."""
    patterns: _Rules = ()
    """Patterns searched in a schema's own ``pattern`` (its text, as written)."""
    values: _Rules = ()
    """Patterns an example value must match whole (``example(s)``, ``default``, ``const``, the
    values an enum lists, and values quoted after "e.g." in a description)."""
    enums: _Rules = ()
    """Allowed values: a string ``enum`` of two or more values, at least 80% of them here
    (case kept), is evidence."""
    units: _Rules = ()
    """Patterns searched (case ignored) in a number's name and description: ``in pixels``."""
    phrases: _Rules = ()
    """Patterns searched (case ignored) in a value's own description, and in what a tool's
    description says it returns."""
    fields: tuple[tuple[str, str], ...] = Field(default=(), max_length=limits.MAX_EVIDENCE_RULES)
    """A record kind's fields: ``{latitude: Latitude, longitude: Longitude}``; a name ending in
    ``?`` is optional, the kind ``any`` takes any value. A record (or a tool's arguments) with
    these fields is evidence."""

    @field_validator("names", "phrases", "units")
    @classmethod
    def _case_free(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _compiled(value, re.IGNORECASE)

    @field_validator("patterns", "values")
    @classmethod
    def _exact(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _compiled(value)

    @field_validator("fields", mode="before")
    @classmethod
    def _field_pairs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return tuple(value.items())
        return value

    @field_validator("fields")
    @classmethod
    def _field_names(cls, value: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        for name, kind in value:
            if not name.rstrip("?"):
                raise ValueError("a field name is empty")
            if kind != "any":
                try:
                    validate_type(kind, plain=True)
                except ValueError:
                    raise ValueError(f"field {name!r}: {kind!r} is not a type name") from None
        return value

    @field_serializer("fields")
    def _fields_mapping(self, value: tuple[tuple[str, str], ...]) -> dict[str, str]:
        return dict(value)


class TypeDecl(_Model):
    """A type of the lattice: its direct supertypes, and its arity if it is a generic constructor.
    A type with ``evidence`` is a *kind*: inference finds it in schemas (``lgent.kinds``)."""

    type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    subtype_of: tuple[str, ...] = ()
    params: int = Field(default=0, ge=0, le=8)
    primitive: bool | None = None
    """True for a primitive (``json.string``...): composition never chains two artifacts
    through it, though an explicit requirement may name it."""
    description: str = Field(default="", max_length=limits.MAX_DESCRIPTION_LENGTH)
    evidence: KindEvidence | None = None
    """The rules that find this type in real schemas (see ``KindEvidence``)."""

    @field_validator("type")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        try:
            validate_type(value, plain=True)
        except ValueError:
            raise ValueError(f"{value!r} is not a type name (letters, digits, _ . -)") from None
        if value == "Any":
            raise ValueError("'Any' is the built-in top type and cannot be declared")
        return value

    @field_validator("subtype_of")
    @classmethod
    def _parents(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for parent in value:
            try:
                validate_type(parent, plain=True)
            except ValueError:
                raise ValueError(
                    f"{parent!r} is not a plain type name (parametric supertypes are not supported)"
                ) from None
        return tuple(dict.fromkeys(value))


def now_utc() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def author_key(author: str) -> str:
    """How authors compare in every filter: case-insensitively (``ToolForge`` == ``toolforge``)."""
    return author.lower()


class SearchFilters(_Model):
    """Structured filters every brain applies: each given list holds the allowed values."""

    entity_type: tuple[EntityType, ...] = ()
    status: tuple[Status, ...] = ()
    author: tuple[str, ...] = ()
    execution: tuple[Execution, ...] = ()
    ids: frozenset[str] | None = None
    """Only these artifacts may be hits (a reader's scope and listing filters, computed by
    the facade: ``lgent.scopes``); None: any."""

    @field_validator("entity_type", "status", "author", "execution", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any, info: ValidationInfo) -> Any:
        """One value stands for a list of one; kinds, statuses and executions in any case."""
        values = (value,) if isinstance(value, str) else value
        if info.field_name == "author" or not isinstance(values, list | tuple):
            return values
        return tuple(v.lower() if isinstance(v, str) else v for v in values)

    @field_validator("author")
    @classmethod
    def _named_authors(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """An empty author name would match only artifacts without one: refused, not guessed."""
        if any(not author.strip() for author in value):
            raise ValueError("an author filter needs a name (leave the filter out for any author)")
        return value

    def admits(self, entry: CatalogEntry) -> bool:
        """True when ``entry`` passes every filter."""
        return self.allows(entry.id) and self.matches(
            entry.entity_type, entry.status, entry.author, entry.execution
        )

    def allows(self, artifact_id: str) -> bool:
        """Whether ``ids`` lets ``artifact_id`` be a hit."""
        return self.ids is None or artifact_id in self.ids

    def matches(
        self, entity_type: str, status: str, author: str | None, execution: str | None
    ) -> bool:
        """The one filter rule, on an artifact's plain attribute values (brains keep compact
        rows, not entries): each given list must hold the value; authors compare by
        ``author_key``, so ``toolforge`` finds ToolForge's artifacts."""
        return (
            (not self.entity_type or entity_type in self.entity_type)
            and (not self.status or status in self.status)
            and (not self.author or author_key(author or "") in self.author_keys)
            and (not self.execution or execution in self.execution)
        )

    @property
    def author_keys(self) -> frozenset[str]:
        """The allowed authors as ``author_key``s (what the keyword index stores)."""
        return frozenset(author_key(a) for a in self.author)

    @property
    def empty(self) -> bool:
        attributes = self.entity_type or self.status or self.author or self.execution
        return not attributes and self.ids is None


class BrainHit(BaseModel):
    """One ranked answer from one brain, with a JSON-serializable explanation tree."""

    model_config = ConfigDict(frozen=True)

    id: str
    score: float
    brain: str
    rank: int = 0
    matched_fields: tuple[str, ...] = ()
    highlights: dict[str, str] = Field(default_factory=dict)
    explanation: dict[str, Any] = Field(default_factory=dict)


def cap_warnings(items: Any) -> tuple[str, ...]:
    """At most ``MAX_WARNINGS`` warnings, the same one said once; the rest summed up in one last
    line ("... and 990 more warnings"), so odd input cannot make an answer huge."""
    unique = tuple(dict.fromkeys(str(item) for item in items))
    if len(unique) <= limits.MAX_WARNINGS:
        return unique
    rest = len(unique) - limits.MAX_WARNINGS
    return (*unique[: limits.MAX_WARNINGS], f"... and {rest} more warning{'s' * (rest > 1)}")


class SearchResult(BaseModel):
    """One brain's answer to ``LGent.search``: its hits, best first, how many artifacts matched
    in all, and anything the caller should know (lenient repairs, an unrecognised question)."""

    model_config = ConfigDict(frozen=True)

    query: str
    hits: tuple[BrainHit, ...]
    total: int
    warnings: tuple[str, ...] = ()

    _capped = field_validator("warnings")(classmethod(lambda cls, v: cap_warnings(v)))


class QueryType(StrEnum):
    """How a query was understood; it picks the brain weights."""

    EXACT_NAME = "exact_name"
    KEYWORD_SYNTAX = "keyword_syntax"
    TYPE_QUERY = "type_query"
    RELATIONSHIP = "relationship"
    SEMANTIC_INTENT = "semantic_intent"


HOLE = "???"
"""A gap in a pipeline (``["DataSource", "???", "Database"]``), for an artifact to fill."""
ContextItem = Annotated[str, Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)]
"""A type name, an artifact id or ``HOLE`` in a query's context."""


class QueryContext(_Model):
    """What the caller was doing: artifacts used before, and the pipeline being built
    (type names and ``???`` for the holes, e.g. ``["DataSource", "???", "Database"]``)."""

    user_history: tuple[ContextItem, ...] = Field(default=(), max_length=limits.MAX_HISTORY)
    current_pipeline: tuple[ContextItem, ...] = Field(default=(), max_length=limits.MAX_PIPELINE)


class SourceHit(BaseModel):
    """One brain's vote for a result: its rank, its own score, and the fused contribution."""

    model_config = ConfigDict(frozen=True)

    brain: str
    rank: int
    score: float
    contribution: float


class Companion(BaseModel):
    """Why a result is offered as a companion (``lgent/fusion/companions.py``): the result
    above it needs a value of ``kind`` that the request does not supply, and this one gives
    it."""

    model_config = ConfigDict(frozen=True)

    of: str
    """The result that needs it."""
    kind: str

    @property
    def reason(self) -> str:
        return f"companion of {self.of}: gives the {self.kind} it needs"


class QueryResult(BaseModel):
    """A fused result: the entry, its score, which brains found it, and why; a ``companion``
    of a result above it when it gives a value that one needs."""

    model_config = ConfigDict(frozen=True)

    id: str
    score: float
    sources: tuple[SourceHit, ...]
    entry: CatalogEntry
    highlights: dict[str, str] = Field(default_factory=dict)
    explanation: dict[str, Any] = Field(default_factory=dict)
    superseded_by: str | None = None
    notes: tuple[str, ...] = ()
    companion: Companion | None = None


class SerendipityItem(BaseModel):
    """An unexpected but potentially useful suggestion (never one of the results)."""

    model_config = ConfigDict(frozen=True)

    artifact_id: str
    reason: str
    confidence: float
    composition: tuple[str, ...] = ()


class BrainRun(BaseModel):
    """Whether a brain ran for a query, with what weight and how many hits, or why not.

    ``change_number``: the catalog change number the state it answered from reflects (below
    the response's own when the brain is still catching up); ``catching_up``: what its indexer
    was doing meanwhile ("" when idle)."""

    model_config = ConfigDict(frozen=True)

    brain: str
    ran: bool
    weight: float
    hits: int = 0
    reason: str = ""
    change_number: int | None = None
    catching_up: str = ""


class QueryResponse(BaseModel):
    """The answer to ``LGent.query``."""

    model_config = ConfigDict(frozen=True)

    query: str
    results: tuple[QueryResult, ...]
    serendipity: tuple[SerendipityItem, ...]
    query_type: QueryType
    classification_reason: str
    query_interpretation: str
    total_matches: int
    """How many artifacts the fused answer holds: each brain is asked for
    ``fusion.min_brain_hits`` hits (100) whatever the ``limit``, so the total and the scores are
    the same for every limit up to 100, in Python and on every surface (a larger limit asks
    each brain for that many)."""
    search_time_ms: float
    brains: tuple[BrainRun, ...] = ()
    constraints: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    change_number: int = 0
    cached: bool = False
    matched: tuple[str, ...] = Field(default=(), exclude=True)
    """Every artifact the fused answer holds, in its order (``total_matches`` of them): what
    a query's facets count (``LGent.facets(among=...)``). Never serialized."""

    _capped = field_validator("warnings")(classmethod(lambda cls, v: cap_warnings(v)))


class TypeRequirement(_Model):
    """A pipeline hole to fill: what goes in, what must come out, contracts and constraints."""

    input_type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    output_type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    contracts: tuple[
        Annotated[str, Field(min_length=1, max_length=limits.MAX_KEYWORD_LENGTH)], ...
    ] = Field(default=(), max_length=limits.MAX_CONTRACTS)
    constraints: tuple[
        Annotated[str, Field(min_length=1, max_length=limits.MAX_CONSTRAINT_LENGTH)], ...
    ] = Field(default=(), max_length=limits.MAX_CONTRACTS)


class ResolutionPreferences(_Model):
    """Weights of the resolver's ranking (each 0..1) and the scales of recency and usage."""

    success_weight: float = Field(default=0.4, ge=0.0, le=1.0)
    recency_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    usage_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    version_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    recency_half_life_days: float = Field(default=90.0, gt=0.0)
    usage_saturation: int = Field(default=100, ge=1)


class ScoreBreakdown(BaseModel):
    """Each preference's component (0..1), its weight, and the weighted total."""

    model_config = ConfigDict(frozen=True)

    success: float
    recency: float
    usage: float
    version: float
    fit: float = 1.0
    """How well the candidate's types fit the requirement (1: declared types; else the
    confidence and specificity of the inferred kinds it matched by), weighed in the version's
    place when its success is unmeasured (``weights["fit"]``)."""
    total: float
    weights: dict[str, float]


class RankedCandidate(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry: CatalogEntry
    score: ScoreBreakdown


class Rejection(BaseModel):
    """A candidate the resolver could not use, and why (type mismatch, unhealthy, ...)."""

    model_config = ConfigDict(frozen=True)

    id: str
    reasons: tuple[str, ...]


class Resolution(BaseModel):
    """The resolver's answer: the best artifact, its score breakdown, the runners-up."""

    model_config = ConfigDict(frozen=True)

    requirement: TypeRequirement
    best: CatalogEntry
    score: ScoreBreakdown
    runners_up: tuple[RankedCandidate, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    considered: int = 0


class PipelineStep(BaseModel):
    """One position of a filled pipeline: a given type/artifact, or what fills a hole."""

    model_config = ConfigDict(frozen=True)

    given: str | None = None
    filled_with: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    reason: str = ""


class FilledPipeline(BaseModel):
    """The pipeline as given and its steps: one per known step and one per run of holes (two
    ``???`` side by side are one gap, bridged by one artifact or one path)."""

    model_config = ConfigDict(frozen=True)

    pipeline: tuple[str, ...]
    steps: tuple[PipelineStep, ...]
