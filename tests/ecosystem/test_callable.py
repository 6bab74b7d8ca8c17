"""Found means callable, on the real data of ../shared/ecosystem: 20 sampled MCP tools keep their
input schema exactly; 20 sampled Swagger operations keep method, path, base URL and parameters as
the spec says; no HTML tag or character reference is left in any description imported from the
Swagger archive."""

from __future__ import annotations

import asyncio
import html.entities
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from lgent import LGent
from lgent.catalog.loaders import read_path
from lgent.models import CatalogEntry
from tests.conftest import quick_run

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAMPLE = 20

# The element names of HTML (the living standard's and obsolete ones), written out here on
# their own so the test does not lean on the cleaner's list, and the documentation tags the
# specs carry (AWS's <note>, <important>, <para>, <fullname>).
HTML_ELEMENTS = frozenset(
    re.findall(
        r"\S+",
        """a abbr acronym address applet area article aside audio b base basefont bdi bdo bgsound
    big blink blockquote body br button canvas caption center cite code col colgroup data
    datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font
    footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input
    ins kbd keygen label legend li link main map mark marquee menu menuitem meta meter nav nobr
    noembed noframes noscript object ol optgroup option output p param picture plaintext pre
    progress q rb rp rt rtc ruby s samp script search section select slot small source span
    strike strong style sub summary sup table tbody td template textarea tfoot th thead time
    title tr track tt u ul var video wbr xmp note important para fullname""",
    )
)
TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?=[\s/>])[^<>]*>")
REFERENCE = re.compile(r"&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")


def markup_in(text: str) -> list[str]:
    tags = [m.group() for m in TAG.finditer(text) if m.group(1).lower() in HTML_ELEMENTS]
    references = [
        m.group()
        for m in REFERENCE.finditer(text)
        if m.group(1).startswith("#") or m.group()[1:] in html.entities.html5
    ]
    return tags + references


def cleaned_entries(paths: list[Path]) -> tuple[int, int]:
    """Read ``paths`` and check that no description kept HTML while the source's did hold some
    (each cleaned description kept its source's words): how many entries, and how many of them
    had a description with markup in their source."""
    entries: list[CatalogEntry] = []
    for path in paths:
        batch = read_path(path)
        assert batch.rejected == []
        entries += [r.record for r in batch.records if isinstance(r.record, CatalogEntry)]
    left = {e.id: markup_in(e.description) for e in entries}
    assert {k: v for k, v in left.items() if v} == {}
    originals = [e.origin.description for e in entries if e.origin and e.origin.description]
    assert all(markup_in(text) for text in originals)
    return len(entries), len(originals)


def test_no_html_is_left_in_any_description_of_the_swagger_archive(
    swagger_specs: Path, pytestconfig: pytest.Config
) -> None:
    """The whole archive in the full run; every tenth spec in the quick run (as property
    tests make a tenth of their examples there), with bars scaled to match."""
    specs = sorted(swagger_specs.rglob("*.json"))
    if quick_run(pytestconfig):
        entries, originals = cleaned_entries(specs[::10])
        assert entries > 1_000
        assert originals > 50  # the sample did hold HTML
    else:
        entries, originals = cleaned_entries([swagger_specs])
        assert entries > 16_000
        assert originals > 1_000  # the archive did hold HTML


def test_sampled_mcp_tools_keep_their_input_schema(mcp_tools: Path) -> None:
    originals: dict[str, dict[str, Any]] = {}
    for file in sorted(mcp_tools.glob("*.json")):
        for tool in json.loads(file.read_text(encoding="utf-8"))["tools"]:
            originals[f"{file.stem}/{tool['name']}"] = tool
    sample = random.Random(33).sample(sorted(originals), SAMPLE)

    async def definitions() -> dict[str, Any]:
        async with LGent.open(None) as lg:
            await lg.load(mcp_tools)
            return {key: (await lg.get(key)).callable_definition() for key in sample}

    found = asyncio.run(definitions())
    for key in sample:
        definition = found[key]
        assert definition is not None and definition["kind"] == "mcp_tool", key
        assert definition["tool"]["inputSchema"] == originals[key]["inputSchema"], key
        assert definition["tool"] == originals[key], key


def spec_operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    found = []
    for path, item in (spec.get("paths") or {}).items():
        for method in METHODS:
            if isinstance(item, dict) and isinstance(item.get(method), dict):
                found.append((path, method, item, item[method]))
    return found


def expected_base(spec: dict[str, Any]) -> str:
    schemes = spec.get("schemes") or ["https"]
    scheme = "https" if "https" in schemes else schemes[0]
    return f"{scheme}://{spec['host']}{(spec.get('basePath') or '').rstrip('/')}"


def followed(spec: dict[str, Any], param: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in param:
        return param
    node: Any = spec
    for part in param["$ref"][2:].split("/"):
        node = node[part]
    return dict(node)


def test_sampled_swagger_operations_keep_method_path_base_url_and_parameters(
    swagger_specs: Path, tmp_path: Path
) -> None:
    specs = sorted(swagger_specs.rglob("*.json"))
    chosen = random.Random(33).sample(specs, SAMPLE)

    async def check() -> int:
        checked = 0
        async with LGent.open(tmp_path / "H") as lg:
            for file in chosen:
                spec = json.loads(file.read_text(encoding="utf-8"))
                operations = spec_operations(spec)
                if not operations or "host" not in spec:
                    continue
                report = await lg.load(file)
                assert report.rejected == []
                path, method, item, operation = random.Random(file.name).choice(operations)
                ids = [
                    i
                    for i in report.result.added
                    if (e := await lg.get(i)).origin is not None
                    and e.origin.http is not None
                    and (e.origin.http.path, e.origin.http.method) == (path, method.upper())
                ]
                assert len(ids) == 1, (file, path, method)
                call = (await lg.get(ids[0])).callable_definition()
                assert call is not None
                http = call["http"]
                assert (http["method"], http["path"]) == (method.upper(), path)
                assert http["base_url"] == expected_base(spec)
                params = [
                    followed(spec, p)
                    for p in [*(item.get("parameters") or []), *(operation.get("parameters") or [])]
                ]
                by_place = {(p["name"], p["in"]): p for p in params}  # the operation's win
                listed = [p for p in by_place.values() if p["in"] != "body"]
                assert [(p["name"], p["in"]) for p in http["parameters"]] == [
                    (p["name"], p["in"]) for p in listed
                ]
                for placed, param in zip(http["parameters"], listed, strict=True):
                    required = param.get("required") is True or param["in"] == "path"
                    assert placed["required"] is required
                    argument = placed.get("argument", param["name"])
                    schema = call["function"]["parameters"]["properties"][argument]
                    assert schema.get("type") == param.get("type")
                    assert schema.get("enum") == param.get("enum")
                body = [p for p in by_place.values() if p["in"] == "body"]
                assert (http["body"] is not None and "argument" in http["body"]) is bool(body)
                checked += 1
        return checked

    assert asyncio.run(check()) == SAMPLE
