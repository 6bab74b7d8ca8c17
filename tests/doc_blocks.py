"""Fenced code blocks of the Markdown docs, and what the docs test does with each.

A block opens with a line of three backquotes and an info string (``python``, ``bash no-test``,
``jsonl file=my-tools.jsonl``): the first word is the language, the rest are tags. Shell blocks
(``bash``, ``sh``, ``shell``, ``console``) become steps: ``lgent ...`` commands (also written
``.venv/bin/lgent`` or after a ``$`` prompt), ``curl`` calls to the HTTP API, and set-up
commands (a virtual environment, ``pip install``, the test suite) that are reported as skipped.
In a ``console`` block the lines after a ``$`` command are output the command must print, in
order; ``...`` inside a line matches anything, and a line of just ``...`` stands for lines left out.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path

SHELL = frozenset({"bash", "sh", "shell", "console"})
RUN = frozenset({"python", *SHELL})
CHECKED = frozenset({"json", "jsonl", "toml"})
NOT_CODE = frozenset({"text", "ebnf", "mermaid", "lgent-query"})
"""Diagrams, grammar and sample output; ``lgent-query`` lines are run by the grammar's own test."""
LANGUAGES = RUN | CHECKED | NOT_CODE

NO_TEST = "no-test"
SETUP = (
    (re.compile(r"^(\S*/)?python3?(\.\d+)? -m venv\b"), "creates a virtual environment"),
    (re.compile(r"^(\S*/)?pip3? install\b"), "installs packages"),
    (re.compile(r"^(\S*/)?python3?(\.\d+)? -m pytest\b"), "runs the test suite itself"),
    (re.compile(r"^bash \.ci/run\b"), "runs the test suite itself"),
    (
        re.compile(r"^(\S*/)?python3?(\.\d+)? -m benchmarks\."),
        "runs a benchmark that writes its page",
    ),
)
"""Set-up commands the docs show but the docs test does not run, with the reason."""
NO_TEST_ALLOWED = re.compile(r"^(\S*/)?lgent\b.*\bserve\b")
"""A ``no-test`` block may hold only servers (they block until stopped); the HTTP and MCP
examples run against servers the test starts itself."""
EXPECT_ERROR = re.compile(r"#\s*->\s*(4\d\d)\b")
"""A ``curl`` line ending in ``# -> 422`` shows an error answer."""
PORT = 8765


@dataclass(frozen=True)
class Step:
    """One thing to run: python code, an lgent command line, a curl call, a file to write."""

    kind: str  # "python", "cli", "curl", "file" or "skip"
    line: int
    code: str = ""
    argv: tuple[str, ...] = ()
    expected: tuple[str, ...] = ()
    expect_error: bool = False
    reason: str = ""


@dataclass(frozen=True)
class Block:
    path: Path
    name: str  # the path relative to the repository, for messages and test ids
    line: int  # 1-based line of the opening fence
    language: str
    tags: tuple[str, ...]
    text: str
    steps: tuple[Step, ...] = field(default=())

    @property
    def id(self) -> str:
        return f"{self.name}:{self.line}"

    @property
    def skipped(self) -> bool:
        return NO_TEST in self.tags

    def tag(self, key: str) -> str | None:
        """The value of a ``key=value`` tag."""
        return next((t.split("=", 1)[1] for t in self.tags if t.startswith(f"{key}=")), None)


_FENCE = re.compile(r"^```(.*)$")


def read_blocks(path: Path, root: Path) -> list[Block]:
    """Every fenced block of ``path``, in order; an unclosed fence is an error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    name = path.relative_to(root).as_posix()
    blocks: list[Block] = []
    n = 0
    while n < len(lines):
        opening = _FENCE.match(lines[n])
        if opening is None:
            n += 1
            continue
        words = opening.group(1).split()
        end = next((m for m in range(n + 1, len(lines)) if lines[m].rstrip() == "```"), None)
        if end is None:
            raise ValueError(f"{name}:{n + 1}: unclosed code block")
        language, tags = (words[0], tuple(words[1:])) if words else ("", ())
        text = "\n".join(lines[n + 1 : end]) + "\n"
        block = Block(path, name, n + 1, language, tags, text)
        blocks.append(_with_steps(block))
        n = end + 1
    return blocks


def _with_steps(block: Block) -> Block:
    first = block.line + 1
    steps: list[Step] = []
    target = block.tag("file")
    if target is not None:
        steps.append(Step("file", first, code=block.text, reason=target))
    elif block.skipped or block.language not in RUN:
        pass
    elif block.language == "python":
        steps.append(Step("python", first, code=block.text))
    else:
        for line, command, expected in shell_commands(block.text, block.language, first):
            steps += command_steps(command, line, expected)
    return replace(block, steps=tuple(steps))


def shell_commands(text: str, language: str, first: int) -> list[tuple[int, str, list[str]]]:
    """``(line, command, expected output lines)`` of a shell block; continuations joined."""
    commands: list[tuple[int, str, list[str]]] = []
    pending: tuple[int, str] | None = None
    for offset, raw in enumerate(text.splitlines()):
        line = first + offset
        if pending is not None:
            start, sofar = pending
            sofar += " " + raw.strip().removesuffix("\\").strip()
            if raw.rstrip().endswith("\\"):
                pending = (start, sofar)
            else:
                commands.append((start, sofar, []))
                pending = None
            continue
        stripped = raw.strip()
        if language == "console":
            if not stripped.startswith("$ "):
                if commands and stripped:
                    commands[-1][2].append(raw.rstrip())
                continue
            stripped = stripped[2:].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending = (line, stripped.removesuffix("\\").strip())
        else:
            commands.append((line, stripped, []))
    if pending is not None:
        commands.append((pending[0], pending[1], []))
    return commands


def command_steps(command: str, line: int, expected: list[str]) -> list[Step]:
    """The steps of one shell command line (``a && b`` gives a step each)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    segments: list[list[str]] = [[]]
    for token in tokens:
        if token == "&&":
            segments.append([])
        else:
            segments[-1].append(token)
    steps = []
    for argv in segments:
        text = shlex.join(argv)
        program = argv[0] if argv else ""
        reason = next((why for pattern, why in SETUP if pattern.search(text)), None)
        if reason is not None:
            steps.append(Step("skip", line, code=text, reason=reason))
        elif program == "lgent" or program.endswith("/lgent"):
            if any(t in {"|", ";", ">", "<", "&", "||"} for t in argv):
                raise ValueError(f"line {line}: pipes and redirections are not run: {command}")
            steps.append(Step("cli", line, argv=tuple(argv[1:]), expected=tuple(expected)))
        elif program == "curl" and len(segments) == 1:
            error = EXPECT_ERROR.search(command) is not None
            steps.append(Step("curl", line, code=command, expect_error=error))
        else:
            raise ValueError(
                f"line {line}: the docs test runs only lgent and curl commands, got: {command}"
            )
    return steps


def expected_matches(expected: list[str] | tuple[str, ...], output: str) -> str | None:
    """``None`` when every expected line appears in ``output`` in order, else the first missing."""
    actual = [line.rstrip() for line in output.splitlines()]
    position = 0
    for want in expected:
        if want.strip() == "...":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.rstrip().split("...")))
        while position < len(actual) and not pattern.fullmatch(actual[position]):
            position += 1
        if position == len(actual):
            return want
        position += 1
    return None
