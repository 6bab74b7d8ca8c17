"""A2A agent cards (``agent-card.json``, and the older ``agent.json``), read through the official
``a2a-sdk`` (optional: ``pip install 'lgent[a2a]'``), whose parser also takes the v0.3 card shape.

The agent is an artifact (entity type ``agent``, author from its provider) and each skill an
artifact ``part_of`` it (``<agent>/<skill id>``), with the skill's tags as keywords, its examples
in the description, and its input and output modes (MIME types; the card's defaults when the
skill names none) as keywords ``input:<mode>`` and ``output:<mode>``. Modes are formats, not data
types, so skills get no input or output type. The agent's and each skill's ``origin`` holds the
agent's URL (the card's ``url``, else its first ``supportedInterfaces`` entry's), and a skill's
origin the skill as the card lists it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from lgent.catalog.readers import provenance
from lgent.catalog.readers.base import JSON_SUFFIXES, Document, Located, ReadContext, parse_failure
from lgent.catalog.readers.common import cleaned, entry, stable
from lgent.catalog.readers.provenance import execution_of_url
from lgent.errors import LoadError

_CARD_KEYS = ("url", "supportedInterfaces", "capabilities", "defaultInputModes", "protocolVersion")


def _parse_card(data: dict[str, Any], source: str) -> Any:
    try:
        from a2a.client.card_resolver import parse_agent_card
        from google.protobuf.json_format import ParseError
    except ImportError as err:
        raise LoadError(
            f"reading A2A agent cards needs the a2a-sdk package (pip install 'lgent[a2a]'): {err}",
            source=source,
        ) from None
    try:
        return parse_agent_card(dict(data))
    except (ParseError, ValueError, TypeError) as err:
        raise LoadError(f"not a valid A2A agent card: {err}", source=source) from None


_TEXT_LISTS = ("defaultInputModes", "defaultOutputModes")
_SKILL_TEXT_LISTS = ("tags", "examples", "inputModes", "outputModes")
_OBJECTS = ("provider", "capabilities")


def _shape_problem(data: dict[str, Any]) -> tuple[str, str] | None:
    """Where a card's structure is wrong and how (JSON pointer, message), or None: checked
    before the SDK parses it, whose own messages name its internals rather than the card."""
    if not isinstance(data.get("name"), str):
        return "/name", f"name must be text, got {_kind(data.get('name'))}"
    for key in _OBJECTS:
        if key in data and not isinstance(data[key], dict):
            return f"/{key}", f"{key} must be an object, got {_kind(data[key])}"
    problem = _text_lists(data, _TEXT_LISTS, "")
    if problem:
        return problem
    skills = data.get("skills", [])
    if not isinstance(skills, list):
        return "/skills", f"skills must be a list of skill objects, got {_kind(skills)}"
    for index, skill in enumerate(skills):
        if not isinstance(skill, dict):
            return f"/skills/{index}", f"a skill must be an object, got {_kind(skill)}"
        problem = _text_lists(skill, _SKILL_TEXT_LISTS, f"/skills/{index}")
        if problem:
            return problem
    return None


def _text_lists(data: dict[str, Any], keys: tuple[str, ...], at: str) -> tuple[str, str] | None:
    for key in keys:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"{at}/{key}", f"{key} must be a list of text, got {_kind(value)}"
    return None


def agent_url(data: dict[str, Any]) -> str | None:
    """The URL an agent is reached at: ``url`` (v0.3), else the first interface's (v1)."""
    if isinstance(data.get("url"), str) and data["url"].strip():
        return str(data["url"]).strip()
    interfaces = data.get("supportedInterfaces")
    for interface in interfaces if isinstance(interfaces, list) else []:
        if isinstance(interface, dict) and isinstance(interface.get("url"), str):
            return str(interface["url"])
    return None


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


class A2aReader:
    name: ClassVar[str] = "a2a"
    title: ClassVar[str] = "A2A agent card (agent-card.json / agent.json)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES
    skips_bad_sources: ClassVar[bool] = True

    def detect(self, doc: Document) -> bool:
        data = doc.data
        return (  # a card with misshapen skills is still a card: reading it says what is wrong
            isinstance(data, dict)
            and isinstance(data.get("name"), str)
            and "skills" in data
            and any(key in data for key in _CARD_KEYS)
        )

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        card = _valid_card(doc, ctx)
        if card is None:
            return
        agent = _agent_of(card, doc)
        located = _agent_entry(card, agent, doc, ctx)
        if located is not None:
            ctx.wholes.append(agent.id)
            yield located
        seen: set[str] = set()
        for index, skill in enumerate(card.skills):
            located = _skill_entry(skill, index, agent, seen, doc, ctx)
            if located is not None:
                yield located


def _valid_card(doc: Document, ctx: ReadContext) -> Any:
    """The document's card parsed by the SDK, or None with the problem told to ``ctx``."""
    data = doc.data
    if doc.parse_error is not None:
        ctx.problem(parse_failure(doc))
        return None
    if not isinstance(data, dict):
        ctx.problem(LoadError("an agent card must be a JSON object", source=doc.source))
        return None
    shape = _shape_problem(data)
    if shape is not None:
        at, message = shape
        ctx.problem(
            LoadError(f"not a valid A2A agent card: {message}", source=f"{doc.source}#{at}")
        )
        return None
    card = _parse_card(data, doc.source)
    if not card.name.strip():
        ctx.problem(LoadError("the agent card has no name", source=f"{doc.source}#/name"))
        return None
    return card


@dataclass(frozen=True, slots=True)
class _Agent:
    """What the agent's entry and each skill's entry take from the card."""

    id: str
    inputs: list[str]
    outputs: list[str]
    reached: dict[str, Any]
    """``{"url": ...}`` when the card says where the agent is reached, else empty."""
    shared: dict[str, Any]
    """The fields every entry of the card carries: author, version, execution."""


def _agent_of(card: Any, doc: Document) -> _Agent:
    author = card.provider.organization if card.HasField("provider") else ""
    authored = {"author": author} if author.strip() else {}
    url = agent_url(doc.data)
    versioned = {**provenance.versioned(card.version), **execution_of_url(url)}
    return _Agent(
        id=stable(card.name, "agent name", doc, "/name"),
        inputs=list(card.default_input_modes),
        outputs=list(card.default_output_modes),
        reached={"url": url} if url else {},
        shared={**authored, **versioned},
    )


def _agent_entry(card: Any, agent: _Agent, doc: Document, ctx: ReadContext) -> Located | None:
    skill_names = [s.name or s.id for s in card.skills]
    origin: dict[str, Any] = {"protocol": "a2a", "role": "agent", **agent.reached}
    (about,) = cleaned(origin, card.description)
    return entry(
        doc,
        ctx,
        "",
        {
            "id": agent.id,
            "name": card.name,
            "entity_type": "agent",
            "description": "\n\n".join(
                p for p in (about, "Skills: " + ", ".join(skill_names)) if p
            ),
            "keywords": ["a2a", *_modes(agent.inputs, agent.outputs)],
            "origin": origin,
            **agent.shared,
        },
    )


def _skill_entry(
    skill: Any, index: int, agent: _Agent, seen: set[str], doc: Document, ctx: ReadContext
) -> Located | None:
    """The entry of the card's ``index``-th skill, ``part_of`` the agent; None (with a
    warning) for a skill without id or name or one ``seen`` before."""
    at = f"/skills/{index}"
    local = skill.id or skill.name
    if not local.strip():
        ctx.warn(f"{doc.source}#{at}: a skill with neither id nor name is left out")
        return None
    skill_id = stable(f"{agent.id}/{local}", "skill id", doc, at)
    if skill_id in seen:
        ctx.warn(f"{doc.source}#{at}: skill {local!r} listed twice; kept the first")
        return None
    seen.add(skill_id)
    examples = list(skill.examples)
    skill_origin: dict[str, Any] = {
        "protocol": "a2a",
        "role": "skill",
        "server": agent.id,
        "tool": doc.data["skills"][index],
        **agent.reached,
    }
    (skill_about,) = cleaned(skill_origin, skill.description)
    description = "\n\n".join(
        p for p in (skill_about, ("Examples: " + "; ".join(examples)) if examples else "") if p
    )
    inputs = list(skill.input_modes) or agent.inputs
    outputs = list(skill.output_modes) or agent.outputs
    return entry(
        doc,
        ctx,
        at,
        {
            "id": skill_id,
            "name": skill.name or skill.id,
            "entity_type": "tool",
            "description": description,
            "keywords": [*skill.tags, *_modes(inputs, outputs)],
            "relations": [{"type": "part_of", "target": agent.id}],
            "origin": skill_origin,
            **agent.shared,
        },
    )


def _modes(inputs: list[str], outputs: list[str]) -> list[str]:
    return [*(f"input:{m}" for m in inputs), *(f"output:{m}" for m in outputs)]
