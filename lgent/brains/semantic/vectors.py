"""The faiss vector index of the semantic brain, its stable id mapping and its manifest.

Vectors are L2-normalized, so inner product is cosine similarity. Below ``hnsw_threshold`` live
vectors the index is exact (``IndexIDMap2`` over ``IndexFlatIP``); at or above it, HNSW
(``IndexIDMap2`` over ``IndexHNSWFlat`` with ``METRIC_INNER_PRODUCT``). Each artifact id maps to a
stable int64 id that never shifts when others are removed.

Removal: the flat index removes in place. HNSW cannot remove, so a removed or replaced vector
becomes a tombstone filtered from every result; once tombstones exceed 20% of the stored vectors
the index is rebuilt from the vectors it already holds (no re-embedding), choosing flat or HNSW
for the live count. An index that reached HNSW stays HNSW until such a rebuild or a full build.

Filtered search over-fetches (``4 * k``, growing fourfold until enough pass or the index is
exhausted); a selective filter (at most ``max(4k, 10%)`` of the live ids) is answered by an exact
scan of just the allowed vectors instead.

On disk (``save``): ``vectors-<generation>.faiss`` (``faiss.write_index``) and
``ids-<generation>.json`` (the id mapping and tombstones), each written to a temporary file and
renamed. The caller writes ``manifest.json`` last (``write_manifest``) naming that generation, then
deletes the files of older generations: a crash at any point leaves the manifest naming a complete
set of files, never a mix of two saves. Nothing is pickled.
faiss is imported inside the methods that use it; its errors become ``IndexError_``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from lgent.brains import integrity
from lgent.brains.integrity import atomic_write_text
from lgent.brains.semantic.openmp import prefer_short_spin
from lgent.errors import IndexCorruptError, IndexError_, write_error

Vectors = npt.NDArray[np.float32]
IndexKind = Literal["flat", "hnsw"]

FORMAT_VERSION = 4
"""2: identifiers in the entry text are split by lgent.analysis (digits stay on words).
3: the manifest carries a checksum of every file it names and of itself.
4: entry texts are cut to the text budget (the manifest's ``entry_tokens``), and the entry
records say which were cut."""
MANIFEST = "manifest.json"
INDEX_FILE = "vectors-{generation}.faiss"
IDS_FILE = "ids-{generation}.json"
TOMBSTONE_FRACTION = 0.2
SELECTIVE_FRACTION = 0.1


def _faiss() -> Any:
    prefer_short_spin()
    try:
        import faiss
    except ImportError as err:
        raise IndexError_(
            f"cannot import faiss ({err}): install it with `pip install faiss-cpu`"
        ) from err
    return faiss


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a persisted semantic index reflects and was built with."""

    change_number: int
    model: str
    dimensions: int
    text_mode: str
    entry_tokens: int
    kind: IndexKind
    count: int
    generation: str
    checksums: dict[str, str] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest in ``directory``; ``None`` when there is none or it is of another format.
    ``IndexCorruptError`` (naming the file) when it is unreadable or does not match its own
    checksum."""
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise IndexCorruptError(f"{path}: unreadable ({err})") from err
    if not isinstance(data, dict):
        raise IndexCorruptError(f"{path}: not a manifest")
    if data.get("format_version") != FORMAT_VERSION:
        return None
    problem = integrity.manifest_problem(data)
    if problem:
        raise IndexCorruptError(f"{path}: {problem}")
    try:
        return Manifest(
            change_number=int(data["change_number"]),
            model=str(data["model"]),
            dimensions=int(data["dimensions"]),
            text_mode=str(data["text_mode"]),
            entry_tokens=int(data["entry_tokens"]),
            kind="hnsw" if data["kind"] == "hnsw" else "flat",
            count=int(data["count"]),
            generation=str(data["generation"]),
            checksums={str(k): str(v) for k, v in data[integrity.CHECKSUMS].items()},
        )
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise IndexCorruptError(f"{path}: {err!r} is missing or malformed") from err


def write_manifest(directory: Path, manifest: Manifest) -> None:
    """Write ``manifest`` (sealed with its own checksum) to a temporary file and rename it."""
    data = integrity.sealed(asdict(manifest))
    atomic_write_text(directory / MANIFEST, json.dumps(data, indent=2))


def remove_other_generations(directory: Path, generation: str, patterns: Sequence[str]) -> None:
    """Delete files named by ``patterns`` (with ``{generation}``) of any other generation."""
    for pattern in patterns:
        keep = pattern.format(generation=generation)
        for path in directory.glob(pattern.format(generation="*")):
            if path.name != keep:
                path.unlink(missing_ok=True)


@dataclass(frozen=True, kw_only=True, slots=True)
class HnswParams:
    threshold: int
    m: int
    ef_construction: int
    ef_search: int


class VectorIndex:
    """Normalized vectors under artifact ids, searched by inner product (cosine similarity)."""

    def __init__(self, dimensions: int, params: HnswParams) -> None:
        self.dimensions = dimensions
        self.params = params
        self._ids: dict[str, int] = {}
        self._keys: dict[int, str] = {}
        self._tombstones: set[int] = set()
        self._next_id = 0
        self._positions: dict[int, int] | None = None
        self.kind: IndexKind = "flat"
        self._index: Any = self._new_index("flat")

    # -- construction ----------------------------------------------------------------------

    def _new_index(self, kind: IndexKind) -> Any:
        faiss = _faiss()
        try:
            if kind == "hnsw":
                inner = faiss.IndexHNSWFlat(
                    self.dimensions, self.params.m, faiss.METRIC_INNER_PRODUCT
                )
                inner.hnsw.efConstruction = self.params.ef_construction
                inner.hnsw.efSearch = self.params.ef_search
            else:
                inner = faiss.IndexFlatIP(self.dimensions)
            index = faiss.IndexIDMap2(inner)
        except RuntimeError as err:
            raise IndexError_(f"cannot create a faiss {kind} index: {err}") from err
        index.referenced_objects = [inner]  # keep the inner index alive with its wrapper
        return index

    def _kind_for(self, count: int) -> IndexKind:
        return "hnsw" if count >= self.params.threshold else "flat"

    def replace_all(self, ids: Sequence[str], vectors: Vectors) -> None:
        """Index exactly these ids and vectors (flat or HNSW by count), with fresh int ids."""
        if len(set(ids)) != len(ids):
            raise IndexError_("replace_all needs distinct artifact ids")
        self._ids = {artifact_id: n for n, artifact_id in enumerate(ids)}
        self._next_id = len(ids)
        self._load_live(list(self._ids.items()), vectors)

    def _load_live(self, pairs: list[tuple[str, int]], vectors: Vectors) -> None:
        self._check_shape(vectors, len(pairs))
        kind = self._kind_for(len(pairs))
        index = self._new_index(kind)
        if pairs:
            try:
                index.add_with_ids(vectors, np.fromiter((v for _, v in pairs), dtype=np.int64))
            except RuntimeError as err:
                raise IndexError_(f"faiss could not add {len(pairs)} vectors: {err}") from err
        self._index, self.kind = index, kind
        self._ids = dict(pairs)
        self._keys = {v: k for k, v in pairs}
        self._tombstones = set()
        self._positions = None

    def _check_shape(self, vectors: Vectors, rows: int) -> None:
        if vectors.dtype != np.float32 or vectors.shape != (rows, self.dimensions):
            raise IndexError_(
                f"expected a float32 array of shape ({rows}, {self.dimensions}), "
                f"got {vectors.dtype} {vectors.shape}"
            )

    # -- incremental changes ---------------------------------------------------------------

    def upsert(self, ids: Sequence[str], vectors: Vectors) -> None:
        """Add new ids and replace the vectors of known ones."""
        if len(set(ids)) != len(ids):
            raise IndexError_("upsert needs distinct artifact ids")
        self._check_shape(vectors, len(ids))
        if not ids:
            return
        self._drop([i for i in ids if i in self._ids])
        new = np.arange(self._next_id, self._next_id + len(ids), dtype=np.int64)
        self._next_id += len(ids)
        try:
            self._index.add_with_ids(np.ascontiguousarray(vectors), new)
        except RuntimeError as err:
            raise IndexError_(f"faiss could not add {len(ids)} vectors: {err}") from err
        for artifact_id, vid in zip(ids, new.tolist(), strict=True):
            self._ids[artifact_id] = vid
            self._keys[vid] = artifact_id
        self._changed()

    def remove(self, ids: Collection[str]) -> None:
        """Forget these ids (unknown ones are ignored)."""
        self._drop([i for i in ids if i in self._ids])
        self._changed()

    def _drop(self, ids: list[str]) -> None:
        if not ids:
            return
        vids = [self._ids.pop(i) for i in ids]
        for vid in vids:
            del self._keys[vid]
        if self.kind == "hnsw":
            self._tombstones.update(vids)
        else:
            try:
                self._index.remove_ids(np.asarray(vids, dtype=np.int64))
            except RuntimeError as err:
                raise IndexError_(f"faiss could not remove {len(vids)} vectors: {err}") from err
        self._positions = None

    def _changed(self) -> None:
        self._positions = None
        stored = int(self._index.ntotal)
        too_many_tombstones = len(self._tombstones) > TOMBSTONE_FRACTION * max(stored, 1)
        outgrew_flat = self.kind == "flat" and self._kind_for(len(self._ids)) == "hnsw"
        if too_many_tombstones or outgrew_flat:
            self.compact()

    def compact(self) -> None:
        """Rebuild from the stored live vectors (drops tombstones, re-picks flat or HNSW)."""
        pairs = sorted(self._ids.items(), key=lambda item: item[1])
        vectors = self._vectors_of([vid for _, vid in pairs])
        self._load_live(pairs, vectors)

    # -- reads -----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, artifact_id: object) -> bool:
        return artifact_id in self._ids

    @property
    def stored(self) -> int:
        """Vectors held by faiss, tombstones included."""
        return int(self._index.ntotal)

    @property
    def tombstones(self) -> int:
        return len(self._tombstones)

    def ids(self) -> list[str]:
        return list(self._ids)

    def vector(self, artifact_id: str) -> Vectors:
        """The stored vector of ``artifact_id`` (KeyError when it is not indexed)."""
        row: Vectors = self._vectors_of([self._ids[artifact_id]])[0]
        return row

    def vectors(self, artifact_ids: Sequence[str]) -> Vectors:
        """The stored vectors of ``artifact_ids``, one row each (KeyError for one not indexed)."""
        return self._vectors_of([self._ids[i] for i in artifact_ids])

    def _storage(self) -> Vectors:
        """A zero-copy view of all stored vectors, in faiss's internal order."""
        faiss = _faiss()
        inner = faiss.downcast_index(self._index.index)
        flat = faiss.downcast_index(inner.storage) if self.kind == "hnsw" else inner
        count = int(flat.ntotal)
        if count == 0:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        view = faiss.rev_swig_ptr(flat.get_xb(), count * self.dimensions)
        return np.asarray(view, dtype=np.float32).reshape(count, self.dimensions)

    def _position_map(self) -> dict[int, int]:
        if self._positions is None:
            id_map = _faiss().vector_to_array(self._index.id_map)
            self._positions = {int(vid): pos for pos, vid in enumerate(id_map.tolist())}
        return self._positions

    def _vectors_of(self, vids: Sequence[int]) -> Vectors:
        positions = self._position_map()
        rows = np.fromiter((positions[v] for v in vids), dtype=np.int64, count=len(vids))
        out: Vectors = np.ascontiguousarray(self._storage()[rows])
        return out

    def search(
        self, vector: Vectors, k: int, allowed: Collection[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``k`` most similar live ids (only those in ``allowed`` when given), best first."""
        live = len(self._ids)
        if k <= 0 or live == 0:
            return []
        query = np.ascontiguousarray(vector, dtype=np.float32).reshape(1, self.dimensions)
        if allowed is not None:
            subset = [self._ids[i] for i in allowed if i in self._ids]
            if len(subset) <= max(4 * k, SELECTIVE_FRACTION * live):
                return self._exact_subset(query, subset, k)
        stored = self.stored
        filtering = allowed is not None or bool(self._tombstones)
        fetch = min(stored, 4 * k if filtering else k)
        while True:
            hits = self._raw_search(query, fetch)
            results = [
                (self._keys[vid], score)
                for vid, score in hits
                if vid in self._keys and (allowed is None or self._keys[vid] in allowed)
            ]
            if len(results) >= k or fetch >= stored:
                return results[:k]
            fetch = min(stored, fetch * 4)

    def _raw_search(self, query: Vectors, fetch: int) -> list[tuple[int, float]]:
        faiss = _faiss()
        try:
            if self.kind == "hnsw":
                params = faiss.SearchParametersHNSW(efSearch=max(self.params.ef_search, fetch))
                scores, vids = self._index.search(query, fetch, params=params)
            else:
                scores, vids = self._index.search(query, fetch)
        except RuntimeError as err:
            raise IndexError_(f"faiss search failed: {err}") from err
        return [
            (int(v), float(s))
            for v, s in zip(vids[0].tolist(), scores[0].tolist(), strict=True)
            if v >= 0
        ]

    def _exact_subset(self, query: Vectors, vids: list[int], k: int) -> list[tuple[str, float]]:
        if not vids:
            return []
        scores = self._vectors_of(vids) @ query[0]
        top = np.argsort(-scores, kind="stable")[:k] if len(vids) <= k else None
        if top is None:
            part = np.argpartition(-scores, k - 1)[:k]
            top = part[np.argsort(-scores[part], kind="stable")]
        return [(self._keys[vids[i]], float(scores[i])) for i in top.tolist()]

    # -- persistence -----------------------------------------------------------------------

    def save(self, directory: Path, generation: str) -> None:
        """Write ``vectors-<generation>.faiss`` and ``ids-<generation>.json`` (temp + rename)."""
        faiss = _faiss()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise IndexError_(f"cannot create {directory}: {err}") from err
        target = directory / INDEX_FILE.format(generation=generation)
        tmp = directory / f".{target.name}.{os.getpid()}.tmp"
        try:
            faiss.write_index(self._index, str(tmp))
            os.replace(tmp, target)
        except OSError as err:
            tmp.unlink(missing_ok=True)
            raise write_error(f"cannot write the vector index {target}", err, IndexError_) from err
        except RuntimeError as err:
            tmp.unlink(missing_ok=True)
            if "No space left" in str(err) or "ENOSPC" in str(err):
                raise write_error(
                    f"cannot write the vector index {target}",
                    OSError(28, "No space left on device"),
                    IndexError_,
                ) from err
            raise IndexError_(f"cannot write the vector index {target}: {err}") from err
        ids = {
            "generation": generation,
            "kind": self.kind,
            "dimensions": self.dimensions,
            "next_id": self._next_id,
            "ids": self._ids,
            "tombstones": sorted(self._tombstones),
        }
        ids_file = directory / IDS_FILE.format(generation=generation)
        atomic_write_text(ids_file, json.dumps(ids, separators=(",", ":")))

    @classmethod
    def load(
        cls, directory: Path, dimensions: int, params: HnswParams, generation: str
    ) -> VectorIndex:
        """The index saved in ``directory``; IndexError_ when it is missing or inconsistent."""
        faiss = _faiss()
        loaded = cls(dimensions, params)
        ids_file = directory / IDS_FILE.format(generation=generation)
        index_file = directory / INDEX_FILE.format(generation=generation)
        try:
            data = json.loads(ids_file.read_text(encoding="utf-8"))
            if data["generation"] != generation:
                raise IndexError_(f"{ids_file} is from another save than the manifest")
            ids = {str(k): int(v) for k, v in data["ids"].items()}
            tombstones = {int(v) for v in data["tombstones"]}
            kind: IndexKind = "hnsw" if data["kind"] == "hnsw" else "flat"
            next_id = int(data["next_id"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise IndexError_(f"cannot read {ids_file}: {err}") from err
        try:
            index = faiss.read_index(str(index_file))
        except RuntimeError as err:
            raise IndexError_(f"cannot read the vector index {index_file}: {err}") from err
        if (
            not isinstance(index, faiss.IndexIDMap2)
            or int(index.d) != dimensions
            or int(index.ntotal) != len(ids) + len(tombstones)
        ):
            raise IndexError_(
                f"the vector index {index_file} does not match {ids_file.name} "
                f"(dimension {index.d}, {index.ntotal} vectors for {len(ids)} ids)"
            )
        inner = faiss.downcast_index(index.index)
        if kind == "hnsw":
            inner.hnsw.efSearch = params.ef_search
        loaded._index, loaded.kind = index, kind
        loaded._ids, loaded._keys = ids, {v: k for k, v in ids.items()}
        loaded._tombstones, loaded._next_id = tombstones, next_id
        return loaded
