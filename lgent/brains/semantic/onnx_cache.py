"""The bundled model as onnxruntime optimizes it, kept on disk so that later processes load it
ready: one optimization per machine instead of one per process.

The packaged ``model.onnx`` stores its weights as int8 with a scale; building a session folds
them back to float32 and fuses the encoder's layers, which briefly holds the packaged graph, the
folded one and the session's own copies at once. A session built from the already optimized
model skips all of that, and is ready in about half the time. The vectors are the same (the same
float32 arithmetic).

The optimized graph is kept in a folder of two files: ``model.onnx`` (the graph, 54 KB) and
``weights.bin`` (its float32 weights, 86 MiB). onnxruntime maps the weights file into memory
rather than reading it: the dense layers' weights are copied once into the layout their
multiplications use, and of the word-piece table (45 MiB) only the rows a text uses are ever
read. Against the optimized model as one file (onnxruntime 1.32, one process each), a session
took 55 MiB against 114 MiB of memory, 140 MiB at the peak of its loading, and ran a 30-piece
query in 6.9 against 8.4 ms; a cold sentence query on the 17k ecosystem home peaked at 295 to
317 MiB against 386 to 388 (``python -m benchmarks.ecosystem_bench``).

The files are written with onnxruntime's *extended* optimizations only, which hold nothing
specific to this CPU (the hardware-specific layout passes run again, in memory, when it is
loaded). The folder lives in ``$LGENT_CACHE_DIR`` or ``$XDG_CACHE_HOME/lgent``
(``~/.cache/lgent``), named for the packaged model (its path, size and modification time), the
onnxruntime version and the level, so a new model or runtime writes a new one. It is written
under a temporary name and renamed whole, so no process reads half of it. Where that folder
cannot be written the model is optimized in memory, as without the cache: the vectors are the
same either way.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

SAVED_LEVEL = "ORT_ENABLE_EXTENDED"
"""The optimizations baked into the kept file (none specific to the CPU)."""


def cache_dir() -> Path:
    """``$LGENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/lgent``, else ``~/.cache/lgent``."""
    chosen = os.environ.get("LGENT_CACHE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "lgent"


MODEL_NAME = "model.onnx"
"""The optimized graph's file in a kept folder."""
WEIGHTS_NAME = "weights.bin"
"""Its weights' file, beside it (onnxruntime resolves the name against the graph's folder)."""
MIN_EXTERNAL_BYTES = 1024
"""Weights of at least this size go to ``WEIGHTS_NAME``; smaller constants stay in the graph."""


def optimized_path(model_file: Path, runtime_version: str) -> Path:
    """Where the optimized graph of ``model_file`` is kept for this onnxruntime version (its
    weights beside it, in ``WEIGHTS_NAME``)."""
    stat = model_file.stat()
    key = f"{model_file.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{runtime_version}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    folder = f"{model_file.stem}-{SAVED_LEVEL.lower()}-{digest}"
    return cache_dir() / "onnx" / folder / MODEL_NAME


def temporary_path(target: Path) -> Path | None:
    """Where to write ``target`` first: the same file name in a fresh folder beside
    ``target``'s folder, or None when that folder cannot be written."""
    root = target.parent.parent
    try:
        root.mkdir(parents=True, exist_ok=True)
        made = tempfile.mkdtemp(prefix=f".{target.parent.name}.", dir=root)
    except OSError:
        return None
    return Path(made) / target.name


def publish(written: Path, target: Path) -> None:
    """Move the folder of a finished ``written`` graph to ``target``'s folder (one rename: a
    failure, or another process that got there first, leaves the kept folder as it was)."""
    try:
        if written.is_file() and written.stat().st_size > 0:
            os.rename(written.parent, target.parent)
            discard_single_files(target.parent.parent)
    except OSError:
        pass
    finally:
        discard(written)


def discard(kept: Path) -> None:
    """Remove the folder of the graph ``kept`` (a damaged or half-written one)."""
    shutil.rmtree(kept.parent, ignore_errors=True)


def discard_single_files(root: Path) -> None:
    """Remove the optimized models that earlier versions kept as one ``.onnx`` file each in
    ``root`` (the weights inline: 86 MiB apiece, never read again)."""
    for old in root.glob("*.onnx"):
        if old.is_file():
            old.unlink(missing_ok=True)
