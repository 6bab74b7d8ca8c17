"""Dense numbers for type names, as the composition index's tables use them."""

from __future__ import annotations


class TypeTable:
    """Canonical type strings <-> dense integer ids."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}

    def add(self, name: str) -> tuple[int, bool]:
        found = self.ids.get(name)
        if found is not None:
            return found, False
        self.ids[name] = len(self.names)
        self.names.append(name)
        return len(self.names) - 1, True

    def __len__(self) -> int:
        return len(self.names)


__all__ = ["TypeTable"]
