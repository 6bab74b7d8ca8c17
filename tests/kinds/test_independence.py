"""lgent.kinds stands below the brains: it imports nothing of them, of fusion or of the
resolver (they will read its results), and nothing heavy."""

from __future__ import annotations

from tests.test_architecture import MODULES, runtime_imports, within

FORBIDDEN = ("lgent.brains", "lgent.fusion", "lgent.resolver", "lgent.lgent", "lgent.serving")


def test_kinds_import_no_brain_fusion_or_resolver() -> None:
    found = [
        f"{name}:{line} imports {imported}"
        for name, path in MODULES.items()
        if within(name, "lgent.kinds")
        for imported, line in runtime_imports(path)
        if any(within(imported, f) for f in FORBIDDEN)
    ]
    assert found == []
    assert any(within(name, "lgent.kinds") for name in MODULES)
