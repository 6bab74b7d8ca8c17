"""Real ecosystem data, read in place from ../shared/ecosystem (never copied into the repo)."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "ecosystem"
if not SHARED.is_dir():  # a worktree beside main: /work/wt/<name> -> /work/shared
    SHARED = Path(__file__).resolve().parents[4] / "shared" / "ecosystem"
MCP_TOOLS = SHARED / "mcp-tools-list"
SWAGGER_ARCHIVE = SHARED / "openapi" / "apis-guru-swagger2-specs.tar.gz"
OPENAPI3 = SHARED / "openapi" / "openapi3-examples"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared ecosystem data not found at {path}")
    return path


@pytest.fixture(scope="session")
def swagger_specs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 567 Swagger 2.0 specs, unpacked once into a temporary folder."""
    archive = need(SWAGGER_ARCHIVE)
    target = tmp_path_factory.mktemp("swagger")
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return target / "specs"


@pytest.fixture
def mcp_tools() -> Path:
    return need(MCP_TOOLS)


@pytest.fixture
def openapi3_examples() -> Path:
    return need(OPENAPI3)
