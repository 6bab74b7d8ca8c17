"""The public API is exactly ``lgent.__all__``, sorted, and every name in it exists."""

from __future__ import annotations

import inspect

import lgent


def test_all_is_sorted_and_resolves() -> None:
    assert list(lgent.__all__) == sorted(lgent.__all__)
    for name in lgent.__all__:
        assert hasattr(lgent, name), name


def test_every_public_non_module_name_is_declared() -> None:
    public = {
        name
        for name in dir(lgent)
        if not name.startswith("_") and not inspect.ismodule(getattr(lgent, name))
    }
    assert public - set(lgent.__all__) == set()
