"""The official MCP Inspector, in CLI mode, against ``lgent serve --mcp`` on the example catalog.

    python -m benchmarks.mcp_inspector            # writes the transcript into docs/integrations.md
    python -m benchmarks.mcp_inspector --no-write # prints it

Loads the example catalog into a fresh home (``lgent --home H load catalog_fixtures/``) and
builds its indexes (``lgent --home H reindex``), then runs
``npx @modelcontextprotocol/inspector --cli`` once to list the tools and once per tool with the
example its description gives, plus a next page (cursor), a full entry (``detail="full"``) and an
error. Each call starts the server anew, as the Inspector's CLI does. Every answer must come back
(an error only where one is expected); the transcript records each command, the answer's text and
its size in tokens (characters / 4 of the JSON the Inspector printed, compacted).
Needs node and npm (the Inspector is fetched by npx on first use).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "integrations.md"
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
BEGIN = "<!-- mcp-inspector transcript: written by python -m benchmarks.mcp_inspector -->"
END = "<!-- end of the mcp-inspector transcript -->"
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
TOOL_LIST_BUDGET = 2_500
SEARCH_BUDGET = 1_500

EXTRA_CALLS: tuple[tuple[str, dict[str, Any], bool], ...] = (
    ("search", {"query": "PDF -> SentimentScore", "limit": 10}, False),
    ("search", {"query": "PDF -> SentimentScore", "limit": 3, "cursor": "3"}, False),
    ("search", {"query": "PDFParser", "limit": 1, "detail": "full"}, False),
    ("get_artifact", {"id": "PDFParser"}, False),
    ("resolve", {"input_type": "PDF", "output_type": "Image"}, True),
)
"""Calls beyond each tool's own example: (tool, arguments, an error expected)."""


@dataclass(frozen=True)
class Call:
    command: str
    answer: str
    tokens: int
    error: bool
    search_of_10: bool = False


def tokens(data: Any) -> int:
    return round(len(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) / 4)


def inspector(home: Path, *args: str) -> Any:
    lgent = Path(sys.executable).parent / "lgent"
    command = [
        "npx",
        "-y",
        INSPECTOR,
        "--cli",
        str(lgent),
        "--home",
        str(home),
        "serve",
        "--mcp",
        *args,
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env={**os.environ, **ENV}
    )
    try:  # a tool error also exits 1, after printing the result (and then a summary)
        answer, _ = json.JSONDecoder().raw_decode(done.stdout.lstrip())
    except ValueError:
        raise RuntimeError(f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}") from None
    if done.returncode != 0 and not answer.get("isError"):
        raise RuntimeError(f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return answer


def tool_args(arguments: dict[str, Any]) -> list[str]:
    out = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value)
        out += ["--tool-arg", f"{key}={text}"]
    return out


def shown(home_name: str, args: list[str]) -> str:
    """The command as a reader would type it (``H`` for the home, ``lgent`` on the PATH)."""
    return shlex.join(
        ["npx", INSPECTOR, "--cli", "lgent", "--home", home_name, "serve", "--mcp", *args]
    )


def run(home: Path) -> tuple[list[str], int, list[Call]]:
    listed = inspector(home, "--method", "tools/list")
    names = [t["name"] for t in listed["tools"]]
    list_tokens = tokens(listed)
    plan: list[tuple[str, dict[str, Any], bool]] = []
    for tool in listed["tools"]:
        example = json.loads(tool["description"].split("Example: ", 1)[1])
        plan.append((tool["name"], example, False))
    plan += EXTRA_CALLS
    calls = []
    for name, arguments, expect_error in plan:
        args = ["--method", "tools/call", "--tool-name", name, *tool_args(arguments)]
        result = inspector(home, *args)
        error = bool(result.get("isError"))
        if error != expect_error:
            raise RuntimeError(f"{name} {arguments}: isError={error}: {result}")
        answer = "".join(block.get("text", "") for block in result["content"])
        full_page = arguments.get("limit", 10) == 10 and arguments.get("detail") != "full"
        search_of_10 = name == "search" and full_page
        calls.append(Call(shown("H", args), answer, tokens(result), error, search_of_10))
    return names, list_tokens, calls


def transcript(names: list[str], list_tokens: int, calls: list[Call], seconds: float) -> str:
    searches = [c.tokens for c in calls if c.search_of_10]
    lines = [
        BEGIN,
        "",
        f"Recorded {time.strftime('%Y-%m-%d')} on {platform.node() or 'this machine'} "
        f"(Python {platform.python_version()}, node {_node_version()}) with {INSPECTOR} in CLI "
        f"mode, in {seconds:.0f} s. The home was made with `lgent --home H load "
        "catalog_fixtures/` and `lgent --home H reindex`; each call starts `lgent --home H "
        "serve --mcp` anew.",
        "",
        f"`tools/list`: {len(names)} tools ({', '.join(names)}), {list_tokens:,} tokens "
        f"(budget {TOOL_LIST_BUDGET:,}). A search of 10 results: "
        f"{', '.join(f'{t:,}' for t in searches)} tokens (budget {SEARCH_BUDGET:,}).",
        "",
    ]
    for call in calls:
        flag = ", an error as expected" if call.error else ""
        lines += [
            "```text",
            f"$ {call.command}",
            call.answer,
            "```",
            "",
            f"({call.tokens:,} tokens{flag})",
            "",
        ]
    lines.append(END)
    return "\n".join(lines)


def _node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def write(section: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise RuntimeError(f"{DOC} has no transcript markers")
    DOC.write_text(pattern.sub(lambda _: section, text), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print instead of writing")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "H"
        lgent = Path(sys.executable).parent / "lgent"
        for step in (["load", str(REPO / "catalog_fixtures")], ["reindex"]):
            # indexes built before the calls: a server answering before its semantic index
            # is built says so (an error for similar), which is not what is recorded here
            subprocess.run(
                [str(lgent), "--home", str(home), *step],
                check=True,
                capture_output=True,
                env={**os.environ, **ENV},
                timeout=600,
            )
        names, list_tokens, calls = run(home)
    section = transcript(names, list_tokens, calls, time.perf_counter() - started)
    over = [c for c in calls if c.search_of_10 and c.tokens > SEARCH_BUDGET]
    if args.no_write:
        print(section)
    else:
        write(section)
    if list_tokens > TOOL_LIST_BUDGET or over:
        print(f"over budget: tool list {list_tokens}, searches {[c.tokens for c in over]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
