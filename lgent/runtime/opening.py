"""Opening a home: its folder (created unless read-only), its settings and its catalog."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lgent.brains.registry import BrainRegistry
from lgent.catalog.backends import open_catalog
from lgent.catalog.protocol import Catalog
from lgent.config import Settings, load_settings
from lgent.home import Home
from lgent.runtime.indexing import BuildProgress

WAITING_FOR_A_WRITER = "waiting for another process to finish writing the catalog"
"""The name ``progress(name, seconds, 0)`` is called with while a write waits for its turn."""


@dataclass(frozen=True, slots=True)
class Opened:
    """A home's layout, settings and open catalog, and whether it opened read-only."""

    home: Home
    settings: Settings
    store: Catalog
    read_only: bool


def open_home(
    home: str | os.PathLike[str] | None,
    settings: Settings | Mapping[str, Any] | None,
    *,
    catalog: str | None,
    progress: BuildProgress | None,
    brains: BrainRegistry | None,
    read_only: bool | None,
) -> Opened:
    """The home at ``home`` (None: in memory), created unless read-only (``None``: exactly when
    it cannot be written), with ``settings`` (else its ``lgent.toml``, else the defaults) and
    its catalog (the shared ``catalog``, else ``[catalog] url``, else its own SQLite file)."""
    layout = Home(None if home is None else Path(home))
    read_only = layout.read_only() if read_only is None else read_only
    if not read_only:
        layout.create()
    chosen = (
        Settings.of(settings, brains)
        if settings is not None
        else load_settings(layout.settings_file, brains)
    )
    url = catalog if catalog is not None else chosen.catalog.url
    if read_only and url is None:
        layout.require_catalog()
    on_wait = None if progress is None else _writer_wait(progress)
    store = open_catalog(layout, read_only=read_only, url=url, on_wait=on_wait)
    return Opened(layout, chosen, store, read_only)


def _writer_wait(progress: BuildProgress) -> Callable[[float], None]:
    return lambda waited: progress(WAITING_FOR_A_WRITER, int(waited), 0)
