"""The layout of an L-gent home folder: the catalog, the derived indexes, the settings file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lgent.errors import CatalogError


@dataclass(frozen=True, slots=True)
class Home:
    """Paths inside a home. ``root=None`` is an in-memory home (nothing written to disk)."""

    root: Path | None

    @property
    def in_memory(self) -> bool:
        return self.root is None

    @property
    def catalog_db(self) -> Path | None:
        return None if self.root is None else self.root / "catalog.db"

    @property
    def settings_file(self) -> Path | None:
        return None if self.root is None else self.root / "lgent.toml"

    def index_dir(self, brain: str) -> Path | None:
        """Where a brain keeps its derived index (``<home>/indexes/<brain>``)."""
        return None if self.root is None else self.root / "indexes" / brain

    def create(self) -> None:
        """Create the folder if missing; an existing file at that path is an error."""
        if self.root is None:
            return
        if self.root.exists() and not self.root.is_dir():
            raise CatalogError(f"home {self.root} exists and is not a folder")
        try:
            (self.root / "indexes").mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CatalogError(f"cannot create home {self.root}: {err.strerror}") from err
