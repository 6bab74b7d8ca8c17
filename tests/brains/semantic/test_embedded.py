"""What an embedder returns is checked before it is used: shape, row count, finite values."""

from __future__ import annotations

import numpy as np
import pytest

from lgent.brains.semantic.embedded import check_vectors
from lgent.errors import ModelUnavailableError


def test_vectors_of_the_right_shape_pass() -> None:
    check_vectors(np.ones((3, 4), dtype=np.float32), 4, "m", 3)
    check_vectors(np.ones((2, 4), dtype=np.float32), 4, "m")  # any number of rows, at least one


@pytest.mark.parametrize(
    ("vectors", "rows", "message"),
    [
        (np.ones((2, 4)), 3, r"returned \(2, 4\), expected \(3, 4\) for 3 texts"),
        (np.ones((3, 5)), 3, r"returned \(3, 5\), expected \(3, 4\)"),
        (np.ones((0, 4)), None, r"returned \(0, 4\), expected at least 1 row of 4"),
        (np.ones(4), 1, r"returned \(4,\), expected \(1, 4\)"),
        ([[1.0] * 4], 1, r"returned list, expected \(1, 4\)"),
        (np.array([[1.0, np.nan, 0.0, 0.0]]), 1, "returned non-finite values"),
    ],
)
def test_a_wrong_answer_is_a_model_error(vectors: object, rows: int | None, message: str) -> None:
    with pytest.raises(ModelUnavailableError, match=f"embedder 'm' {message}"):
        check_vectors(vectors, 4, "m", rows)
