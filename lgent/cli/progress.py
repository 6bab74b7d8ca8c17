"""Progress of long index builds on stderr: a bar on a terminal, a line per tenth in a log.

rich's progress bar is imported when a bar is first drawn: most commands build nothing."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

LOG_MIN_TOTAL = 5_000
"""Off a terminal, builds of fewer entries than this are quick and print nothing."""


class StderrBuildProgress:
    """``progress(brain, done, total)`` for ``LGent.open``: drives a transient bar when stderr is
    a terminal, else writes ``building the semantic index: 10,240/100,000`` at each tenth."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self._lock = threading.Lock()
        self._bar: Progress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._logged: dict[str, int] = {}

    def __call__(self, brain: str, done: int, total: int) -> None:
        with self._lock:
            if total <= 0:  # not a build but a wait, e.g. for another process's write
                self._wait(brain, done)
            elif self.terminal:
                self._draw(brain, done, total)
            elif total >= LOG_MIN_TOTAL:
                self._log(brain, done, total)

    def _draw(self, brain: str, done: int, total: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("building the {task.description} index"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(file=self.stream),
                transient=True,
            )
            self._bar.start()
        if brain not in self._tasks:
            self._tasks[brain] = self._bar.add_task(brain, total=total)
        self._bar.update(self._tasks[brain], completed=done, total=total)

    def _wait(self, what: str, seconds: int) -> None:
        """A step or a wait (``semantic: loading the model``): said when it starts, then every
        five seconds of it (``(5 s)``)."""
        step = seconds // 5
        if self._logged.get(what, -1) < step:
            self._logged[what] = step
            line = what if seconds == 0 else f"{what} ({seconds} s)"
            if self._bar is not None:
                self._bar.console.print(line, markup=False, highlight=False)
            else:
                self.stream.write(line + "\n")
                self.stream.flush()

    def _log(self, brain: str, done: int, total: int) -> None:
        tenth = done * 10 // max(total, 1)
        if self._logged.get(brain, -1) >= tenth:
            return
        self._logged[brain] = tenth
        self.stream.write(f"building the {brain} index: {done:,}/{total:,}\n")
        self.stream.flush()

    def close(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None
