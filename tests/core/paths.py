"""Where the real data lives: ../shared/data next to the repository (CI and developers),
or BPE_LENS_DATA when set."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data")
if not DATA.is_dir() and Path("/work/shared/data").is_dir():  # a clone somewhere else on this machine
    DATA = Path("/work/shared/data")
EXAMPLES = ROOT / "resources" / "examples"


def need(rel: str) -> Path:
    """The real data file ``rel`` under DATA; the test skips (naming it) when it is missing."""
    import pytest
    path = DATA / rel
    if not path.exists():
        pytest.skip(f"real data missing: {path}")
    return path
