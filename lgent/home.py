"""The layout of an L-gent home folder: the catalog, the derived indexes, the settings file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lgent.errors import CatalogError

CATALOG_FILE = "catalog.db"
"""A home's own catalog (``<home>/catalog.db``)."""
MIRROR_FILE = "replica.db"
"""A replica home's copy of its shared catalog (``<home>/replica.db``)."""


@dataclass(frozen=True, slots=True)
class Home:
    """Paths inside a home. ``root=None`` is an in-memory home (nothing written to disk)."""

    root: Path | None

    @property
    def in_memory(self) -> bool:
        return self.root is None

    @property
    def catalog_db(self) -> Path | None:
        return None if self.root is None else self.root / CATALOG_FILE

    @property
    def settings_file(self) -> Path | None:
        return None if self.root is None else self.root / "lgent.toml"

    def index_dir(self, brain: str) -> Path | None:
        """Where a brain keeps its derived index (``<home>/indexes/<brain>``)."""
        return None if self.root is None else self.root / "indexes" / brain

    @staticmethod
    def is_home(folder: Path) -> bool:
        """Whether ``folder`` is an L-gent home: it holds a catalog file (its own or a shared
        catalog's replica) beside its ``indexes`` folder, or a catalog file alone. A folder
        this process may not look into (no search permission) is not known to be one."""
        try:
            return (folder / CATALOG_FILE).is_file() or (
                (folder / "indexes").is_dir() and (folder / MIRROR_FILE).is_file()
            )
        except OSError:
            return False

    def is_replica(self) -> bool:
        """Whether the home holds a shared catalog's replica and no catalog of its own."""
        if self.root is None:
            return False
        return (self.root / MIRROR_FILE).is_file() and not (self.root / CATALOG_FILE).is_file()

    def create(self) -> None:
        """Create the folder if missing; an existing file at that path is an error."""
        if self.root is None:
            return
        try:
            if self.root.exists() and not self.root.is_dir():
                raise CatalogError(f"home {self.root} exists and is not a folder")
            (self.root / "indexes").mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CatalogError(f"cannot create home {self.root}: {err.strerror}") from err

    def read_only(self) -> bool:
        """True when the home exists but cannot be written: a read-only mount, a snapshot, a
        folder (or catalog file) without write permission for this user. A home this user may
        not even look at is a CatalogError naming it."""
        if self.root is None:
            return False
        try:
            if not self.root.is_dir():
                return False
            db = self.root / CATALOG_FILE
            targets = [self.root, self.root / "indexes", db]
            return any(t.exists() and not os.access(t, os.W_OK) for t in targets)
        except OSError as err:
            raise CatalogError(f"cannot open home {self.root}: {err.strerror or err}") from err

    def require_catalog(self) -> None:
        """CatalogError unless the home holds a catalog (a read-only home cannot create one)."""
        db = self.catalog_db
        if db is not None and not db.is_file():
            raise CatalogError(f"no catalog at {db} (and the home is read-only, so none is made)")
