"""The bundled model as onnxruntime optimizes it, kept on disk so that later processes load it
ready: one optimization per machine instead of one per process.

The packaged ``model.onnx`` stores its weights as int8 with a scale; building a session folds
them back to float32 and fuses the encoder's layers, which briefly holds the packaged graph, the
folded one and the session's own copies at once. A session built from the already optimized
model skips all of that: on the 17k ecosystem home, a sentence's cold ``lgent query`` peaked 68 MiB
lower (the session's share of the process 386 against 454 MiB in one process), and the session
is ready in about half the time. The vectors are the same (the same float32 arithmetic).

The file is written with onnxruntime's *extended* optimizations only, which hold nothing
specific to this CPU (the hardware-specific layout passes run again, in memory, when it is
loaded). It lives in ``$LGENT_CACHE_DIR`` or ``$XDG_CACHE_HOME/lgent`` (``~/.cache/lgent``),
named for the packaged model (its size and modification time), the onnxruntime version and the
level, so a new model or runtime writes a new one; it is written to a temporary name and
renamed, so two processes never read half a file. Where that folder cannot be written the model
is optimized in memory, as without the cache: the vectors are the same either way.
"""

from __future__ import annotations

import hashlib
import os
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


def optimized_path(model_file: Path, runtime_version: str) -> Path:
    """Where the optimized form of ``model_file`` is kept for this onnxruntime version."""
    stat = model_file.stat()
    key = f"{model_file.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{runtime_version}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / "onnx" / f"{model_file.stem}-{SAVED_LEVEL.lower()}-{digest}.onnx"


def temporary_path(target: Path) -> Path | None:
    """A fresh file name beside ``target`` to write it under (its folder made), or None when
    that folder cannot be written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError:
        return None
    os.close(handle)
    return Path(name)


def publish(written: Path, target: Path) -> None:
    """Move a finished ``written`` file to ``target`` (atomically; a failure leaves neither)."""
    try:
        if written.is_file() and written.stat().st_size > 0:
            os.replace(written, target)
    except OSError:
        pass
    finally:
        written.unlink(missing_ok=True)
