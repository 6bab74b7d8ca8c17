"""SemanticBrain: find artifacts by what they do, by cosine similarity of text embeddings.

Each latest entry is embedded once (``text.entry_text``; vectors cached by content hash in
``embeddings.sqlite``) and held in a faiss index (``vectors``). A small per-id record (status, type,
author, execution, successor links, name, description head, keywords) lets the brain apply
``SearchFilters``, exclude an artifact's own versions from ``find_similar`` and explain hits
without the catalog.

An entry's text is cut to the text budget (``semantic.entry_tokens`` word pieces, ``budget.py``)
before it is embedded and keyed; ``status()`` says how many texts were cut.

On disk, in the brain's folder: ``manifest.json`` (format version, catalog change number, model
name, dimension, text mode, text budget, index kind, count, generation), ``vectors-<gen>.faiss``,
``ids-<gen>.json``, ``entries-<gen>.json`` and ``embeddings.sqlite``. A missing or unreadable
manifest, another model, dimension, text mode or text budget, or files that do not match it leave
the brain unbuilt (``change_number == -1``, ``status().detail`` says why), so ``sync`` rebuilds
it; the embedding cache makes that rebuild cheap.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from cachetools import LRUCache

from lgent.analysis.clauses import clauses
from lgent.analysis.scripts import script_share
from lgent.analysis.tokens import content_words
from lgent.brains import integrity
from lgent.brains.base import SIMILAR_RELATION, BrainQuery, BrainStatus, ChangeSet
from lgent.brains.semantic.background import BackgroundEmbedder
from lgent.brains.semantic.cache import FILENAME as CACHE_FILE
from lgent.brains.semantic.cache import EmbeddingCache, cache_key
from lgent.brains.semantic.embedded import check_vectors, first_rows, model_loaded
from lgent.brains.semantic.embedder_choice import configured_embedder
from lgent.brains.semantic.embedders import (
    CutsToPieces,
    Embedder,
    EmbedsQueries,
    Progress,
    ReadsScripts,
    Vectors,
    normalize_rows,
)
from lgent.brains.semantic.lineage import Successors, lineage_of, successors_of
from lgent.brains.semantic.pooling import (
    POOLING_TAG,
    PoolsPieces,
    clause_pools,
    clause_share,
    content_pools,
)
from lgent.brains.semantic.ranking import (
    BRAIN,
    RankQuery,
    SemanticRanking,
    best_of,
    check_cosines,
    clause_lifted,
    explained_hit,
    moved_vector,
    weak_reason,
)
from lgent.brains.semantic.records import (
    ENTRIES_FILE,
    EntryInfo,
    generation_files,
    key_of,
    read_entries,
    write_entries,
)
from lgent.brains.semantic.settings import SemanticSettings
from lgent.brains.semantic.text import EntryTexts, budgeted_texts
from lgent.brains.semantic.vectors import (
    IDS_FILE,
    INDEX_FILE,
    HnswParams,
    Manifest,
    VectorIndex,
    read_manifest,
    remove_other_generations,
    write_manifest,
)
from lgent.errors import (
    BuildStoppedError,
    IndexCorruptError,
    IndexError_,
    NotFoundError,
    QueryError,
)
from lgent.models import (
    BrainHit,
    CatalogEntry,
    QueryType,
    SearchFilters,
    TypeDecl,
)

T = TypeVar("T")

MOVED_SHOWN = 3  # artifacts named in the note of a query moved toward some (``_ranked``)
EMBED_CHUNK = 32
"""Entry texts per embedder call during builds and catch-ups (one batch of the model): each is
written to the embedding cache before the next starts (a killed build resumes there), a stop
request is honoured between them (a tenth of a second or so on 2 cores), and a query that needs
the model goes first (``QUERY_FIRST_SECONDS``). The texts are embedded shortest first, so a
batch pads little."""
QUERY_FIRST_SECONDS = 2.0
"""The longest a build waits, before its next batch, for the query embeddings in flight."""
SAVE_EVERY_CHANGE_BELOW = 10_000
"""Indexes smaller than this are saved after every change (it takes well under a second)."""
CHECKPOINT_SHARE = 0.01
CHECKPOINT_SECONDS = 300.0
"""A larger index is saved once a share of it changed or this long after its last save, on a
build, and on close: saving 100k vectors rewrites ~230 MB (about 3 s). What a crash loses in
between is caught up from the catalog's change log on the next open, its vectors read back from
the embedding cache, so nothing is embedded twice."""


@dataclass(slots=True)
class SemanticCounters:
    """Work counters, so tests and benchmarks can see what was (not) computed."""

    embed_calls: int = 0  # embedder.embed_batch calls, entries and queries
    texts_embedded: int = 0  # entry texts sent to the embedder
    entry_cache_hits: int = 0  # entry texts whose vector came from the embedding cache
    query_cache_hits: int = 0
    query_cache_misses: int = 0


class SemanticBrain:
    """Intent search and find-similar over entry embeddings (``path=None``: all in memory)."""

    name = BRAIN

    def __init__(
        self,
        path: Path | None,
        settings: SemanticSettings | None = None,
        embedder: Embedder | None = None,
        *,
        progress: Progress | None = None,
        stage: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        fresh: bool = False,
        read_only: bool = False,
        background: bool = False,
    ) -> None:
        """``progress(done, total)`` and ``stage(name)`` hear how a build goes; ``cancelled()``
        is asked between batches (true: raise ``BuildStoppedError``, keeping the batches already
        cached). ``fresh``: do not read the persisted index (a build follows). ``read_only``:
        write nothing; an index that is not usable as it is raises ``IndexError_``.
        ``background``: queries are answered meanwhile, so a build of more than one batch embeds
        at a lower OS priority, on a copy of the model of its own (``BackgroundEmbedder``)."""
        self.settings = settings or SemanticSettings()
        self.embedder: Embedder = embedder or configured_embedder(self.settings)
        self.path = path
        self.progress = progress
        self.stage = stage
        self.cancelled = cancelled or (lambda: False)
        self.read_only = read_only
        self.background = background
        self.counters = SemanticCounters()
        self._lock = threading.RLock()
        self._query_lock = threading.Lock()
        self._querying = 0
        self._queries_done = threading.Condition()
        size = self.settings.query_cache_size
        self._query_cache: LRUCache[str, Vectors] | None = LRUCache(size) if size else None
        # CONTENT_POOLING (pooling.py): entries and requests pooled from their content words
        self._pooled = self.settings.pooling == "content" and isinstance(self.embedder, PoolsPieces)
        self._parts_cache: LRUCache[str, tuple[Vectors, ...]] | None = (
            LRUCache(size) if size else None
        )
        self._model = self.embedder.name + (f"+{POOLING_TAG}" if self._pooled else "")
        self._dimensions = self.embedder.dimensions
        self._params = HnswParams(
            threshold=self.settings.hnsw_threshold,
            m=self.settings.hnsw_m,
            ef_construction=self.settings.ef_construction,
            ef_search=self.settings.ef_search,
        )
        cache_file = None if path is None or read_only else path / CACHE_FILE
        self._cache = EmbeddingCache(cache_file, self._dimensions)
        self._vectors = VectorIndex(self._dimensions, self._params)
        self._entries: dict[str, EntryInfo] = {}
        self._successors: Successors | None = None
        self._allowed_cache: dict[SearchFilters, frozenset[str]] = {}
        self._change_number = -1
        self._generation = ""  # the files this instance last read or wrote
        self._unsaved = 0  # changes applied since the files were last written
        self._saved_at = time.monotonic()
        self._closed = False
        self.detail = "not built yet"
        if path is not None and not fresh:
            self._open(path)
            if read_only and self._change_number < 0:
                raise IndexError_(f"the semantic index in {path} cannot be used: {self.detail}")

    # -- opening and saving ----------------------------------------------------------------

    def _open(self, path: Path) -> None:
        try:
            manifest = read_manifest(path)
        except IndexCorruptError as err:
            self.detail = f"damaged, it will be rebuilt: {err}"
            return
        if manifest is None:
            self.detail = "no usable manifest: the index will be built"
            return
        mismatch = [
            f"{what} {was!r} (now {now!r})"
            for what, was, now in (
                ("model", manifest.model, self._model),
                ("dimensions", manifest.dimensions, self._dimensions),
                ("text mode", manifest.text_mode, self.settings.text_mode),
                ("text budget", manifest.entry_tokens, self.settings.entry_tokens),
            )
            if was != now
        ]
        if mismatch:
            self.detail = "built with another " + ", ".join(mismatch) + ": it will be rebuilt"
            return
        named = set(generation_files(manifest.generation))
        damaged = integrity.file_problems(path, {integrity.CHECKSUMS: manifest.checksums})
        if set(manifest.checksums) != named:
            damaged.append(f"the manifest's checksums name {sorted(manifest.checksums)}")
        if damaged:  # never hand a damaged file to faiss
            self.detail = "damaged, it will be rebuilt: " + "; ".join(damaged)
            return
        try:
            vectors = VectorIndex.load(path, self._dimensions, self._params, manifest.generation)
            entries = read_entries(path, manifest.generation)
        except IndexError_ as err:
            self.detail = f"unreadable, it will be rebuilt: {err}"
            return
        if set(entries) != set(vectors.ids()):
            self.detail = "the id map and the entry records disagree: it will be rebuilt"
            return
        self._vectors, self._entries = vectors, entries
        self._generation = manifest.generation
        self._change_number = manifest.change_number
        self.detail = ""

    def _commit(self, change_number: int, *, changed: int | None = None) -> None:
        """Stamp the current state with ``change_number`` and persist it: always after a
        build (``changed=None``), after ``changed`` more changes only at a checkpoint."""
        self._change_number = change_number
        self.detail = ""
        if changed is not None:
            self._unsaved += changed
            size = len(self._vectors)
            due = (
                size < SAVE_EVERY_CHANGE_BELOW
                or self._unsaved >= CHECKPOINT_SHARE * size
                or time.monotonic() - self._saved_at >= CHECKPOINT_SECONDS
            )
            if not due:
                return
        self._save()

    def _save(self) -> None:
        """Write a new generation of files, the manifest last, and drop the older ones."""
        if self.path is not None and not self.read_only:
            generation = uuid.uuid4().hex
            self._vectors.save(self.path, generation)
            write_entries(self.path, generation, self._entries)
            write_manifest(
                self.path,
                Manifest(
                    change_number=self._change_number,
                    model=self._model,
                    dimensions=self._dimensions,
                    text_mode=self.settings.text_mode,
                    entry_tokens=self.settings.entry_tokens,
                    kind=self._vectors.kind,
                    count=len(self._vectors),
                    generation=generation,
                    checksums=integrity.checksums(self.path, generation_files(generation)),
                ),
            )
            remove_other_generations(self.path, generation, (INDEX_FILE, IDS_FILE, ENTRIES_FILE))
            self._generation = generation
        self._unsaved = 0
        self._saved_at = time.monotonic()

    # -- the Brain protocol ----------------------------------------------------------------

    @property
    def change_number(self) -> int:
        return self._change_number

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        """Re-index ``entries`` from scratch; only texts not in the embedding cache are embedded.

        The new index is made beside the one answering queries, which it replaces at the end."""
        self._check_open()
        latest = list({e.id: e for e in entries}.values())
        made = self._texts(latest)
        keys = [cache_key(self._model, t) for t in made.texts]
        vectors = self._entry_vectors(keys, made.texts)
        self._report_stage("indexing")
        fresh = VectorIndex(self._dimensions, self._params)
        fresh.replace_all([e.id for e in latest], vectors)
        records = {
            e.id: EntryInfo.of(e, k, cut) for e, k, cut in zip(latest, keys, made.cut, strict=True)
        }
        with self._lock:
            self._check_open()
            self._vectors = fresh
            self._set_entries(records)
            self._cache.retain(keys)
            self._commit(change_number)

    def _texts(self, entries: Sequence[CatalogEntry]) -> EntryTexts:
        """The texts embedded for ``entries``: cut to the text budget when the embedder counts
        word pieces."""
        settings = self.settings
        return budgeted_texts(entries, settings.text_mode, self.embedder, settings.entry_tokens)

    def _changed_texts(
        self, changes: ChangeSet
    ) -> tuple[list[CatalogEntry], EntryTexts, list[str]]:
        """The latest upserts with their texts and cache keys."""
        upserts = list({e.id: e for e in changes.upserts}.values())
        made = self._texts(upserts)
        return upserts, made, [cache_key(self._model, t) for t in made.texts]

    def prepare_changes(self, changes: ChangeSet) -> None:
        """Embed (into the cache) the texts ``apply_changes`` will need, without changing what
        queries read: the slow part of a catch-up, done while they keep being answered."""
        self._check_open()
        entries = self._entries
        upserts, made, keys = self._changed_texts(changes)
        needed = [
            (k, t)
            for e, t, k in zip(upserts, made.texts, keys, strict=True)
            if key_of(entries.get(e.id)) != k
        ]
        if needed:
            self._entry_vectors([k for k, _ in needed], [t for _, t in needed])

    def apply_changes(self, changes: ChangeSet) -> None:
        """Drop removed ids, re-embed entries whose text changed, update the records."""
        self.prepare_changes(changes)
        with self._lock:
            self._check_open()
            if self._change_number < 0:
                raise IndexError_(
                    f"cannot apply changes to a semantic index that is not built ({self.detail})"
                )
            entries = dict(self._entries)
            self._vectors.remove(changes.removals)
            for artifact_id in changes.removals:
                entries.pop(artifact_id, None)
            upserts, made, keys = self._changed_texts(changes)
            changed = [
                i
                for i, (entry, key) in enumerate(zip(upserts, keys, strict=True))
                if entry.id not in self._vectors or key_of(entries.get(entry.id)) != key
            ]
            if changed:
                fresh = [keys[i] for i in changed], [made.texts[i] for i in changed]
                vectors = self._entry_vectors(*fresh)
                self._vectors.upsert([upserts[i].id for i in changed], vectors)
            for entry, key, cut in zip(upserts, keys, made.cut, strict=True):
                entries[entry.id] = EntryInfo.of(entry, key, cut)
            self._set_entries(entries)
            self._commit(changes.change_number, changed=len(changes.removals) + len(upserts))

    def status(self) -> BrainStatus:
        extra: dict[str, Any] = {
            "model": self._model,
            "dimensions": self._dimensions,
            "text_mode": self.settings.text_mode,
            "entry_tokens": (
                self.settings.entry_tokens if isinstance(self.embedder, CutsToPieces) else None
            ),
            "texts_cut": self._texts_cut(),
            "index": self._vectors.kind,
            "tombstones": self._vectors.tombstones,
        }
        if self._cache.note:
            extra["cache"] = self._cache.note
        if self._unsaved:
            extra["unsaved_changes"] = self._unsaved
        if self._change_number < 0:  # how far a build (here or elsewhere) has come
            extra["cached_vectors"] = len(self._cache)
        return BrainStatus(
            self.name,
            self._change_number >= 0,
            len(self._vectors),
            self._change_number,
            self.detail,
            extra,
        )

    def _texts_cut(self) -> int:
        """How many indexed entries' texts the text budget cut."""
        return sum(1 for info in self._entries.values() if info.cut)

    def close(self) -> None:
        """Save what changed since the last checkpoint, then release the cache."""
        with self._lock:
            if self._closed:
                return
            if self._unsaved and self._change_number >= 0 and not self._superseded():
                self._save()
            self._closed = True
            self._cache.close()

    def _superseded(self) -> bool:
        """True when the files on disk are another save at least as new as this state (a
        rebuild swapped in beside this instance, another process): never write over them."""
        if self.path is None:
            return False
        try:
            manifest = read_manifest(self.path)
        except IndexCorruptError:
            return False
        return (
            manifest is not None
            and manifest.generation != self._generation
            and manifest.change_number >= self._change_number
        )

    def _check_open(self) -> None:
        if self._closed:
            raise IndexError_("the semantic brain is closed")

    # -- embedding -------------------------------------------------------------------------

    def _embed(
        self, texts: Sequence[str], embedder: Embedder | None = None, *, query: bool = False
    ) -> Vectors:
        """``texts`` embedded and checked; ``query``: one request (``EmbedsQueries``)."""
        self.counters.embed_calls += 1
        chosen = embedder or self.embedder
        if self._pooled and not query and isinstance(chosen, PoolsPieces):
            pooled = chosen.embed_pooled(texts, content_pools)
            vectors = first_rows(pooled, self._dimensions)
        elif query and len(texts) == 1 and isinstance(chosen, EmbedsQueries):
            vectors = chosen.embed_query(texts[0])
        else:
            vectors = chosen.embed_batch(texts)
        check_vectors(vectors, self._dimensions, self._model, len(texts))
        return normalize_rows(vectors)

    def _entry_vectors(self, keys: Sequence[str], texts: Sequence[str]) -> Vectors:
        """Vectors for entry texts: from the cache, embedding (and caching) only the misses,
        batch by batch (shortest texts first), asking ``cancelled()`` between batches."""
        total = len(keys)
        cached = self._cache.get_many(keys)
        self.counters.entry_cache_hits += sum(1 for k in keys if k in cached)
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in cached}
        done = total - len(missing)
        if self.progress is not None:
            self.progress(done, total)
        pending = sorted(missing.items(), key=lambda item: (len(item[1]), item[0]))
        builder = None
        if self.background and len(pending) > EMBED_CHUNK:
            builder = BackgroundEmbedder.of(self.embedder)
        if pending and (builder is not None or not model_loaded(self.embedder)):
            self._report_stage("loading the model")
        try:
            for start in range(0, len(pending), EMBED_CHUNK):
                self._let_queries_first()
                if self.cancelled():
                    raise BuildStoppedError(
                        f"stopped after embedding {done} of {total} entries "
                        "(kept for the next build)"
                    )
                chunk = pending[start : start + EMBED_CHUNK]
                vectors = self._embed([t for _, t in chunk], builder)
                if start == 0:
                    self._report_stage("embedding")
                fresh = {k: vectors[i] for i, (k, _) in enumerate(chunk)}
                self._cache.put_many(fresh)
                cached.update(fresh)
                self.counters.texts_embedded += len(chunk)
                done += len(chunk)
                if self.progress is not None:
                    self.progress(done, total)
        finally:
            if builder is not None:
                builder.close()
        if not keys:
            return np.zeros((0, self._dimensions), dtype=np.float32)
        return np.ascontiguousarray(np.stack([cached[k] for k in keys]), dtype=np.float32)

    def _let_queries_first(self) -> None:
        """Before a build's next batch: wait (a little) for the query embeddings in flight, so
        a query does not queue behind build batches for the model's threads."""
        with self._queries_done:
            self._queries_done.wait_for(lambda: not self._querying, QUERY_FIRST_SECONDS)

    def _report_stage(self, name: str) -> None:
        if self.stage is not None:
            self.stage(name)

    def query_vector(self, intent: str) -> Vectors:
        """The embedding of a query, from the LRU cache when it was asked before."""

        def embed() -> Vectors:
            vector: Vectors = self._embed([intent], query=True)[0]
            vector.setflags(write=False)
            return vector

        return self._asked(self._query_cache, intent, embed)

    def query_parts(self, intent: str) -> tuple[Vectors, ...]:
        """A request's own vector and one per clause of it (``pooling.clause_pools``, all from
        one encoder pass; from the LRU cache when it was asked before). Needs an embedder that
        pools word pieces (``PoolsPieces``); else ``query_vector`` alone."""
        embedder = self.embedder
        if not isinstance(embedder, PoolsPieces):
            return (self.query_vector(intent),)

        def embed() -> tuple[Vectors, ...]:
            self.counters.embed_calls += 1
            (rows,) = embedder.embed_pooled([intent], clause_pools)
            check_vectors(rows, self._dimensions, self._model)
            parts = tuple(normalize_rows(rows))
            for vector in parts:
                vector.setflags(write=False)
            return parts

        return self._asked(self._parts_cache, intent, embed)

    def _asked(self, cache: LRUCache[str, T] | None, intent: str, embed: Callable[[], T]) -> T:
        """``embed()``'s answer for ``intent``, from ``cache`` when it holds it; the embedding
        counts as a query in flight (a build's batches wait for it, ``_let_queries_first``)."""
        if cache is not None:
            with self._query_lock:
                hit = cache.get(intent)
                if hit is not None:
                    self.counters.query_cache_hits += 1
                    return hit
                self.counters.query_cache_misses += 1
        with self._queries_done:
            self._querying += 1
        try:
            found = embed()
        finally:
            with self._queries_done:
                self._querying -= 1
                self._queries_done.notify_all()
        if cache is not None:
            with self._query_lock:
                cache[intent] = found
        return found

    # -- records ---------------------------------------------------------------------------

    def _set_entries(self, entries: dict[str, EntryInfo]) -> None:
        self._entries = entries
        self._successors = None
        self._allowed_cache.clear()

    def _allowed(self, filters: SearchFilters | None) -> frozenset[str] | None:
        if filters is None or filters.empty:
            return None
        allowed = self._allowed_cache.get(filters)
        if allowed is None:
            allowed = frozenset(
                i
                for i, info in self._entries.items()
                if filters.allows(i) and info.admitted_by(filters)
            )
            if len(self._allowed_cache) > 64:
                self._allowed_cache.clear()
            self._allowed_cache[filters] = allowed
        return allowed

    def lineage(self, artifact_id: str) -> set[str]:
        """``artifact_id`` and its older and newer versions: ``successor_to`` chains either way."""
        if self._successors is None:
            self._successors = successors_of(self._entries)
        return lineage_of(artifact_id, self._entries, self._successors)

    # -- search ----------------------------------------------------------------------------

    def _require_built(self) -> None:
        self._check_open()
        if self._change_number < 0:
            raise IndexError_(f"the semantic index is not built ({self.detail})")

    def search(
        self,
        intent: str,
        filters: SearchFilters | None = None,
        threshold: float | None = None,
        limit: int = 10,
    ) -> list[BrainHit]:
        """Artifacts whose text is closest in meaning to ``intent``, best first, explained.

        Hits below ``threshold`` (default ``settings.threshold``) cosine similarity are left out.
        """
        return self.rank(intent, filters, threshold, limit).hits

    def answer(self, query: BrainQuery) -> SemanticRanking:
        """The ranking of ``query.text`` (its plain words, when it was read in the keyword
        grammar) by meaning, hits explained on demand.

        A query that names an artifact this index holds (a name lookup, or a question about
        alternatives to it) is answered with that artifact's own stored vector as the query:
        what is closest in meaning to the artifact named, with no query embedding, so neither
        needs the model. A question about its other relations gets no ranking."""
        reading = query.reading
        if reading is not None and reading.kind == "relationship":
            # alternatives to an artifact are what is closest to it in meaning; for the other
            # relations, and in the question's own words ("what depends on"), there is
            # nothing to compare
            like = None
            if reading.relation == SIMILAR_RELATION and reading.artifact:
                like = self.rank_like(reading.artifact, query.text, query.filters, query.limit)
            return like if like is not None else SemanticRanking([], lambda *_: None)
        if query.query_type == QueryType.EXACT_NAME and query.named_artifact is not None:
            named = self.rank_like(query.named_artifact, query.text, query.filters, query.limit)
            if named is not None:
                return named
        text = query.text if query.plain_text is None else query.plain_text
        return self.rank(text, query.filters, None, query.limit)

    def rank_like(
        self, artifact_id: str, text: str, filters: SearchFilters | None, limit: int
    ) -> SemanticRanking | None:
        """The artifacts closest in meaning to ``artifact_id`` (itself first), ranked by its
        stored vector; None when the index does not hold it."""
        explain = self._explainer(content_words(text), ())
        with self._lock:
            self._require_built()
            if artifact_id not in self._vectors:
                return None
            vector = self._vectors.vector(artifact_id)
            pairs = self._vectors.search(vector, limit, self._allowed(filters))
        check_cosines(pairs)
        cutoff = self.settings.threshold
        return SemanticRanking([p for p in pairs if p[1] >= cutoff], explain)

    def rank(
        self,
        intent: str,
        filters: SearchFilters | None = None,
        threshold: float | None = None,
        limit: int = 10,
    ) -> SemanticRanking:
        """``search``'s ranking, with each hit explained only when asked for."""
        intent = intent.strip()
        if not intent:
            raise QueryError("a semantic search needs a non-empty intent")
        if limit < 0:
            raise QueryError(f"limit must be >= 0, got {limit}")
        cutoff = self.settings.threshold if threshold is None else threshold
        if isinstance(cutoff, bool) or not isinstance(cutoff, int | float) or not -1 <= cutoff <= 1:
            raise QueryError(f"threshold must be a number in [-1, 1], got {cutoff!r}")
        self._require_built()
        words = content_words(intent)
        settings = self.settings
        share = None if settings.clauses else clause_share(len(words), settings)
        query = RankQuery(words, filters, limit, cutoff, share)
        if limit == 0 or not len(self._vectors):
            return SemanticRanking([], self._explainer(query.words, ()))
        loaded_before = model_loaded(self.embedder)
        if self.settings.clauses:
            vectors = [self.query_vector(part) for part in [intent, *clauses(intent)]]
        elif self._pooled and share:
            vectors = list(self.query_parts(intent))
        else:
            vectors = [self.query_vector(intent)]
        notes: tuple[str, ...] = ()
        if not loaded_before and model_loaded(self.embedder):
            seconds = getattr(self.embedder, "load_seconds", None)
            if isinstance(seconds, float):
                notes = (f"loading the embedding model took {seconds:.2f} s",)
        ranking = self._ranked(query, vectors, notes)
        scripts = self.embedder.scripts if isinstance(self.embedder, ReadsScripts) else None
        if scripts is not None:
            ranking.reads = script_share(intent, scripts)
        return ranking

    def _ranked(
        self,
        query: RankQuery,
        vectors: Sequence[Vectors],
        notes: tuple[str, ...],
        toward: tuple[str, ...] = (),
        weak: tuple[str, float] | None = None,
    ) -> SemanticRanking:
        """The ranking of the query's ``vectors`` (several: each part's best), which can be
        moved toward other artifacts (``SemanticRanking.moved_toward``); ``toward``: the
        artifacts these vectors were already moved toward, ``weak``: the unmoved query's weak reason
        and confidence."""
        with self._lock:
            self._require_built()
            allowed = self._allowed(query.filters)
            share = query.clause_share
            searched = vectors if share is None else vectors[:1]
            found = [self._vectors.search(v, query.limit, allowed) for v in searched]
            for each in found:
                check_cosines(each)
            if len(vectors) == 1:
                pairs = found[0]
            elif share is None:
                pairs = best_of(found, query.limit)
            else:  # the clauses rescore what the request found: no search of their own
                pairs = clause_lifted(vectors, found[0], self._vectors.vectors, share)

        def moved(artifact_ids: Sequence[str], weight: float) -> SemanticRanking:
            with self._lock:
                self._require_built()
                held = tuple(dict.fromkeys(i for i in artifact_ids if i in self._vectors))
                if weight <= 0 or not held:
                    return ranking
                centre = self._vectors.vectors(held).mean(axis=0)
            shown = ", ".join(held[:MOVED_SHOWN]) + ("…" * (len(held) > MOVED_SHOWN))
            note = (
                f"the semantic brain's query was moved toward {len(held)} "
                f"artifact{'s' * (len(held) != 1)} that its words found ({shown})"
            )
            again = [moved_vector(v, centre, weight) for v in vectors]
            unmoved = (ranking.weak, ranking.confidence)
            answer = self._ranked(query, again, (*notes, note), held, unmoved)
            answer.reads = ranking.reads
            return answer

        why, confidence = (
            weak_reason(pairs, query.words, self.settings.weak_match, self.embedder)
            if weak is None
            else weak
        )
        ranking = SemanticRanking(
            [p for p in pairs if p[1] >= query.cutoff],
            self._explainer(query.words, toward),
            notes=notes,
            weak=why,
            confidence=confidence,
            move=moved,
        )
        return ranking

    def _explainer(
        self, words: list[str], toward: tuple[str, ...]
    ) -> Callable[[str, float, int], BrainHit | None]:
        """Explains a hit of a query of ``words`` (moved ``toward`` some artifacts)."""

        def explain(artifact_id: str, score: float, rank: int) -> BrainHit | None:
            with self._lock:
                if artifact_id not in self._entries:
                    return None
                return explained_hit(
                    self._entries, self._model, artifact_id, score, rank, words, None, toward
                )

        return explain

    def find_similar(
        self, artifact_id: str, limit: int = 10, within: frozenset[str] | None = None
    ) -> list[BrainHit]:
        """The artifacts closest in meaning to ``artifact_id``, without it or its own versions
        (only those in ``within`` when given: a reader's scope)."""
        if limit < 0:
            raise QueryError(f"limit must be >= 0, got {limit}")
        with self._lock:
            self._require_built()
            if artifact_id not in self._vectors:
                raise NotFoundError(artifact_id)
            if limit == 0:
                return []
            excluded = self.lineage(artifact_id)
            pairs = self._vectors.search(
                self._vectors.vector(artifact_id), limit + len(excluded), within
            )
            check_cosines(pairs)
            source = self._entries[artifact_id]
            words = content_words(" ".join([source.name, source.description, *source.keywords]))
            kept = [p for p in pairs if p[0] not in excluded][:limit]
            return [
                explained_hit(self._entries, self._model, hit_id, score, rank, words, artifact_id)
                for rank, (hit_id, score) in enumerate(kept, start=1)
            ]
