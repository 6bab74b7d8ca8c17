"""The catalog's entries: an artifact at one version (``CatalogEntry``), its relations, the
enumerations its fields take, and the text fields explanations read (``EntryText``,
``StoredText``). Imported through ``lgent.models``."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from pydantic import Field, field_validator, model_validator

from lgent import limits
from lgent.ids import ID_RE, normalise_id
from lgent.model.strict import StrictModel, check_text
from lgent.origin import Origin
from lgent.typeexpr import validate_type


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


class Relation(StrictModel):
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


class CatalogEntry(StrictModel):
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
        return None if value is None else check_text(value, multiline=False)

    @field_validator("description")
    @classmethod
    def _clean_description(cls, value: str) -> str:
        return check_text(value, multiline=True)

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
        return check_text(value, multiline=False)

    @field_validator("keywords", "contracts")
    @classmethod
    def _clean_words(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        cleaned: list[str] = []
        for word in value:
            word = check_text(word.strip(), multiline=False)
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
