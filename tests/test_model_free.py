"""``pytest -m "not real_model"`` runs the suite without the embedding model: every test that
needs it is marked (by hand, or by the fixtures it uses, see conftest.py), and none of the rest
loads it, in the test process or in a process it starts."""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BLOCKER = HERE / "model_blocker"


def blocked_env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(BLOCKER), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "LGENT_TEST_NO_MODEL": "1"}


def test_the_model_free_run_refuses_the_model_in_its_own_process(
    pytestconfig: pytest.Config,
) -> None:
    """``-m "not real_model"`` alone turns the blocker on (tests/conftest.py), in this process
    too: the run itself is the proof that no test it selects loads the model."""
    from tests.conftest import quick_run

    if not quick_run(pytestconfig):
        pytest.skip("only in the model-free run (-m 'not real_model')")
    assert os.environ.get("LGENT_TEST_NO_MODEL") == "1"
    assert str(BLOCKER) in os.environ["PYTHONPATH"].split(os.pathsep)
    with pytest.raises(ImportError, match="model-free test run"):
        importlib.import_module("sentence_transformers")


def test_the_blocker_refuses_the_model_in_a_child_process() -> None:
    """The guard below is not vacuous: with it on, loading the model is an error."""
    code = "import sentence_transformers"
    run = subprocess.run([sys.executable, "-c", code], env=blocked_env(), capture_output=True)
    assert run.returncode != 0 and b"model-free test run" in run.stderr


@pytest.mark.slow
def test_the_model_free_run_never_loads_the_model() -> None:
    if os.environ.get("LGENT_TEST_NO_MODEL") == "1":
        pytest.skip("this is the model-free run itself")
    # in two processes when pytest-xdist is installed (the dev extra has it): the blocker holds
    # in each, as in every process a test starts
    workers = ["-n", "2"] if importlib.util.find_spec("xdist") else []
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            *workers,
            "-m",
            "not real_model",
        ],
        cwd=HERE.parent,
        # the blocker and a tenth of the examples are what "-m 'not real_model'" turns on by
        # itself (tests/conftest.py); the environment says the former again for clarity
        env=blocked_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
