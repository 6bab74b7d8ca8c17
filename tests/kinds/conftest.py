"""One vocabulary per test session: reading the shipped YAML is pure, so it can be shared."""

from __future__ import annotations

import pytest

from lgent.kinds import Vocabulary, default_vocabulary


@pytest.fixture(scope="session")
def vocabulary() -> Vocabulary:
    return default_vocabulary()
