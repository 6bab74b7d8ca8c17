"""The ``lgent`` command line: a thin shell over the LGent facade.

User errors (any LGentError) print one line to stderr and exit 1; usage errors exit 2. The
commands live in ``catalog_commands`` and ``query_commands``, registered on the app of
``shell``; this module puts the global options where Typer reads them and runs the app.
"""

from __future__ import annotations

import copy
import functools
import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

from lgent.cli import output
from lgent.cli.heap import compact_heap
from lgent.cli.serve import serve

if TYPE_CHECKING:
    pass

from lgent.cli import access_commands, catalog_commands, query_commands
from lgent.cli.shell import app, handles_errors

__all__ = [
    "access_commands",
    "app",
    "catalog_commands",
    "console_main",
    "main",
    "query_commands",
]

app.command()(handles_errors(serve))


GLOBAL_FLAGS = ("--version",)
GLOBAL_OPTIONS = ("--home",)


def _command_of(args: Sequence[str]) -> str | None:
    """The subcommand named in ``args`` (the first word that is no option nor option value)."""
    index = 0
    while index < len(args):
        if args[index] in GLOBAL_OPTIONS:
            index += 2
        elif args[index].startswith("-"):
            index += 1
        else:
            return args[index]
    return None


def _command_index(args: Sequence[str]) -> int:
    """Where ``_command_of`` found the subcommand in ``args`` (-1: nowhere)."""
    index = 0
    while index < len(args):
        if args[index] in GLOBAL_OPTIONS:
            index += 2
        elif args[index].startswith("-"):
            index += 1
        else:
            return index
    return -1


@functools.cache
def _click_command(only: str | None = None) -> Any:
    """The click group typer builds from ``app``, built once per process: typer builds it by
    reading every command's signature, which took a tenth of a cold ``lgent query`` when the
    option helpers below and the call itself each built their own. ``only``: the group with
    that one subcommand, when ``app`` has it (a call runs one command; reading the other
    twenty signatures took about 25 ms); the whole group otherwise (help, a mistyped name)."""
    chosen = [c for c in app.registered_commands if only is not None and _name_of(c) == only]
    if len(chosen) == 1 and not app.registered_groups:
        narrowed = copy.copy(app)
        narrowed.registered_commands = chosen
        group = typer.main.get_command(narrowed)
        if only in getattr(group, "commands", {}):
            return group
    return typer.main.get_command(app)


def _name_of(command: Any) -> str | None:
    """The name typer gives a registered command (its own, or its function's)."""
    if command.name:
        return str(command.name)
    callback = command.callback
    return None if callback is None else callback.__name__.lower().replace("_", "-")


def _own_options(command: str | None) -> set[str]:
    """The option names the subcommand ``command`` defines itself."""
    root = _click_command(command)
    found = getattr(root, "commands", {}).get(command) if command else None
    if found is None:
        return set()
    options = (p for p in found.params if p.param_type_name == "option")
    return {name for param in options for name in param.opts}


def hoist_global_options(args: Sequence[str]) -> list[str]:
    """``args`` with the global options moved before the command, so ``lgent query X --home H``
    means ``lgent --home H query X`` (nothing after a ``--`` is touched)."""
    hoisted: list[str] = []
    rest: list[str] = []
    own = _own_options(_command_of(args)) & {*GLOBAL_FLAGS, *GLOBAL_OPTIONS}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest += args[index:]
            break
        if arg in own:
            rest.append(arg)  # the command's own option of that name (`show --version 1.0`)
        elif arg in GLOBAL_FLAGS or any(arg.startswith(f"{o}=") for o in GLOBAL_OPTIONS):
            hoisted.append(arg)
        elif arg in GLOBAL_OPTIONS and index + 1 < len(args):
            hoisted += [arg, args[index + 1]]
            index += 1
        else:
            rest.append(arg)
        index += 1
    return hoisted + rest


TEXT_COMMANDS = ("query", "search")
"""Commands whose argument is query text, which may start with ``-`` (``lgent query -73.95``)."""


def _option_arity(command: str) -> dict[str, int]:
    """Each option name of ``command`` (and ``--help``) and how many values it takes."""
    root = _click_command(command)
    found = getattr(root, "commands", {}).get(command)
    arity = {"--help": 0}
    for param in getattr(found, "params", ()):
        if param.param_type_name != "option":
            continue
        takes = 0 if (getattr(param, "is_flag", False) or getattr(param, "count", False)) else 1
        arity.update({name: takes for name in (*param.opts, *param.secondary_opts)})
    return arity


def query_text_arguments(args: Sequence[str]) -> list[str]:
    """``args`` with the words of a query command read as its query text: a word that starts with
    one ``-`` but is none of the command's options is text (``lgent query "-73.95 longitude"``),
    and several words are one query (``lgent query -73.95 longitude``). An unknown ``--word``
    stays an option, so a typo is still an error. Options may come anywhere; ``--`` ends them."""
    command = _command_of(args)
    if command not in TEXT_COMMANDS:
        return list(args)
    start = _command_index(args) + 1
    arity = _option_arity(command)
    options: list[str] = []
    words: list[str] = []
    index = start
    while index < len(args):
        arg = args[index]
        name = arg.split("=", 1)[0]
        if arg == "--":
            words += args[index + 1 :]
            break
        if name in arity:
            takes = arity[name] if "=" not in arg else 0
            options += args[index : index + 1 + takes]
            index += 1 + takes
            continue
        if arg.startswith("--"):
            options.append(arg)  # a mistyped long option stays an error, not query text
        else:
            words.append(arg)
        index += 1
    if not words or (len(words) == 1 and not words[0].startswith("-")):
        return list(args)
    return [*args[:start], *options, "--", " ".join(words)]


def main() -> None:
    """Run the command ``sys.argv`` names: what ``app()`` does, with the click group built once.
    With ``--json``, a usage error (an unknown option, a bad value) is JSON on stdout like every
    other error (``{"error": {"type", "message"}}``), exit 2, not click's text on stderr."""
    args = query_text_arguments(hoist_global_options(sys.argv[1:]))
    command = _click_command(_command_of(args))
    if not has_option(args, "--json"):
        command(args=args, prog_name="lgent")
        return
    try:
        code = command.main(args=args, prog_name="lgent", standalone_mode=False)
    except typer.Abort:
        output.print_error("aborted", as_json=True, kind="Aborted")
        sys.exit(1)
    except typer.TyperException as err:  # click's usage errors derive from it
        format_message = getattr(err, "format_message", None)
        message = format_message() if callable(format_message) else str(err)
        output.print_error(message, as_json=True, kind=type(err).__name__)
        sys.exit(getattr(err, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)


def has_option(args: Sequence[str], option: str) -> bool:
    """Whether ``option`` is among the options of ``args`` (not in the query text after
    ``--``)."""
    options = args[: args.index("--")] if "--" in args else args
    return option in options


ONE_SHOT_READS = frozenset(
    {
        "compatible",
        "fill",
        "history",
        "lineage",
        "list",
        "path",
        "query",
        "resolve",
        "search",
        "show",
        "similar",
        "stats",
        "types",
    }
)
"""Commands that answer and end: the console script runs them with the garbage collector off
(unless ``--wait`` asks them to build an index first)."""


def console_main() -> None:
    """The ``lgent`` console script and ``python -m lgent.cli``: ``main()`` in a process that
    ends with it.

    What is alive when the command starts (modules, classes, settings) lives until the process
    exits, and what the command leaves is dropped with it, so both are frozen out of the garbage
    collector's scans: otherwise the collections while the interpreter shuts down traversed every
    object again, a fifth of the CPU time of a cold name lookup (0.66 -> 0.51 s). A command of
    ``ONE_SHOT_READS`` runs with the collector off: what it reads (the brains' tables) lives as
    long as the process, and the collections scanning it were a tenth of a cold query's CPU on
    a 17,000-artifact home, with the same peak memory (also when the query first builds the
    keyword and graph indexes: 413 MB either way), and a compact heap (``heap.py``)."""
    gc.freeze()
    args = sys.argv[1:]
    if _command_of(args) in ONE_SHOT_READS and not has_option(args, "--wait"):
        gc.disable()  # --wait may build the semantic index first: a long run keeps collecting
        compact_heap()  # one malloc arena, trimmed early: a lower peak (``heap.py``)
    try:
        main()
    finally:
        gc.freeze()
