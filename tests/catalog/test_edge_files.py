"""Every odd input class of issue 18 (point 1) gives a typed error naming the file, or a skip
listed with its reason; and hypothesis-made documents in every loader format give records or an
LGentError, nothing else."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.harness.edge_files import build_cases, run_case
from lgent import LGent
from lgent.catalog.loaders import read_path
from lgent.config import LoadSettings
from lgent.errors import LGentError, LoadError, ValidationError
from tests.examples import examples


def test_every_edge_case_is_typed_or_skipped_with_its_reason(tmp_path: Path) -> None:
    outcomes = [run_case(case, seconds=20) for case in build_cases(tmp_path)]
    bad = [(o.case, o.result, o.detail) for o in outcomes if not o.ok]
    assert not bad, bad
    assert len(outcomes) >= 30


def test_a_folder_of_every_skip_class_still_loads_its_good_files(tmp_path: Path) -> None:
    cases = [c for c in build_cases(tmp_path) if c.expect == "skip" and not c.denied]
    for case in cases:
        batch = read_path(case.load, options=case.options)
        assert [e.id for e in batch.entries] == ["ok"], case.name


def test_symlinks_inside_the_folder_are_read_and_outside_only_when_allowed(tmp_path: Path) -> None:
    root = tmp_path / "cat"
    (root / "real").mkdir(parents=True)
    (root / "real" / "a.jsonl").write_text('{"id": "a", "name": "a"}\n', encoding="utf-8")
    (root / "b.jsonl").symlink_to(root / "real" / "a.jsonl")
    (root / "again").symlink_to(root / "real")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "c.jsonl").write_text('{"id": "c", "name": "c"}\n', encoding="utf-8")
    (root / "ext").symlink_to(outside)
    (outside / "back").symlink_to(outside)  # a loop once followed
    batch = read_path(root / "real")
    assert [e.id for e in batch.entries] == ["a"]
    with pytest.raises(LoadError, match="duplicate entry 'a'"):
        read_path(root)  # b.jsonl is a second copy of a.jsonl, inside the folder: read
    (root / "b.jsonl").unlink()
    batch = read_path(root)
    assert [e.id for e in batch.entries] == ["a"]
    reasons = dict(batch.skipped)
    assert "inside the loaded folder" in reasons[str(root / "again")]
    assert "outside the loaded folder" in reasons[str(root / "ext")]
    followed = read_path(root, options=LoadSettings(follow_symlinks=True))
    assert sorted(e.id for e in followed.entries) == ["a", "c"]
    assert "already read (a loop)" in dict(followed.skipped)[str(root / "ext" / "back")]


def test_follow_symlinks_through_the_facade_and_the_setting(tmp_path: Path) -> None:
    root = tmp_path / "cat"
    root.mkdir()
    outside = tmp_path / "x.jsonl"
    outside.write_text('{"id": "x", "name": "x"}\n', encoding="utf-8")
    (root / "x.jsonl").symlink_to(outside)

    async def go() -> tuple[int, int]:
        async with LGent.open(tmp_path / "home") as lg:
            skipped = await lg.load(root, dry_run=True)
            followed = await lg.load(root, follow_symlinks=True)
            return len(skipped.result.added), len(followed.result.added)

    assert asyncio.run(go()) == (0, 1)
    (tmp_path / "home2").mkdir()
    (tmp_path / "home2" / "lgent.toml").write_text(
        "[load]\nfollow_symlinks = true\nmax_file_mib = 1\n", encoding="utf-8"
    )

    async def by_setting() -> int:
        async with LGent.open(tmp_path / "home2") as lg:
            return len((await lg.load(root)).result.added)

    assert asyncio.run(by_setting()) == 1


def test_register_refuses_keys_that_are_not_strings(tmp_path: Path) -> None:
    async def go() -> None:
        async with LGent.open(tmp_path / "home") as lg:
            with pytest.raises(ValidationError, match="keys must be strings, got int 1"):
                await lg.register({1: "x", "id": "a", "name": "a"})  # type: ignore[dict-item]
            with pytest.raises(ValidationError, match="keys must be strings, got NoneType"):
                await lg.register({None: "x", "id": "a", "name": "a"})  # type: ignore[dict-item]
            assert (await lg.stats())["artifacts"] == 0

    asyncio.run(go())


def test_yaml_key_error_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("- id: a\n  name: a\n- id: b\n  name: b\n  false: 1\n", encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        read_path(path)
    assert f"{path}:5: key 'false' at column 3 is a boolean" in str(caught.value)


# -- fuzzing ------------------------------------------------------------------------------------

BIG = "@@big@@"
"""Stands for an integer of 4,400 digits, written into the text (hypothesis and json.dumps
cannot hold such an integer themselves)."""
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(BIG),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.sampled_from(["tools", "openapi", "3.0.0", "function", "skills", "id", "name", "type"]),
)
KEYS = st.one_of(
    st.text(max_size=10),
    st.sampled_from(
        ["id", "name", "tools", "inputSchema", "openapi", "paths", "skills", "function", "type"]
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


def deep(levels: int, body: str = "1") -> str:
    return "[" * levels + body + "]" * levels


def render(value: object, fmt: str, depth: int, noise: str) -> tuple[str, str]:
    """``value`` written as a file of format ``fmt`` (suffix, text), wrapped ``depth`` deep."""
    suffix, text = _render(value, fmt, depth, noise)
    for form in (f'"{BIG}"', f"'{BIG}'", BIG):
        text = text.replace(form, "9" * 4400)
    return suffix, text


def _render(value: object, fmt: str, depth: int, noise: str) -> tuple[str, str]:
    text = json.dumps(value)
    if depth:
        text = deep(depth, text)
    if fmt == "jsonl":
        return ".jsonl", "\n".join([text, noise, json.dumps(value)])
    if fmt == "yaml":
        try:
            body = yaml.safe_dump(value) if not depth else text
        except yaml.YAMLError:
            body = text
        return ".yaml", body + noise
    if fmt == "md":
        return ".md", "---\n" + (yaml.safe_dump(value) if not depth else text) + "---\n" + noise
    return ".json", text + noise


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    value=VALUES,
    fmt=st.sampled_from(["json", "jsonl", "yaml", "md"]),
    kind=st.sampled_from([None, "mcp", "openapi", "a2a", "openai", "manifest", "jsonl"]),
    depth=st.sampled_from([0, 0, 0, 127, 129, 1500]),
    noise=st.sampled_from(["", "\n", "{", "\n1: x\n", "\n~: [", "\n? [a]\n: b\n", "\x00", ": :"]),
)
def test_fuzz_every_loader_format_gives_records_or_a_typed_error(
    tmp_path: Path, value: object, fmt: str, kind: str | None, depth: int, noise: str
) -> None:
    suffix, text = render(value, fmt, depth, noise)
    if kind == "jsonl":
        suffix = ".jsonl"
    elif kind in ("mcp", "openapi", "openai", "a2a") and suffix not in (".json", ".yaml"):
        suffix = ".json"
    path = tmp_path / f"doc{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        read_path(path, kind=kind)
    except LGentError as err:
        assert str(err)
