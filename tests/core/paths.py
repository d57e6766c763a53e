"""The one resolver for real data files in the tests.

``DATA`` is the large shared test data: ``BPE_LENS_DATA`` when set, else ``../shared/data`` beside
the checkout (CI and developers). A checkout without it still runs the essential goldens and
real-data cross-checks on the small real files shipped in ``tests/data/real`` (same relative
paths; origins, licences and which ones are excerpts in ``tests/data/README.md``). Every other test
that needs a missing file skips on its own, naming the file.
"""
import os
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data")
SHIPPED = ROOT / "tests" / "data" / "real"
EXAMPLES = ROOT / "resources" / "examples"


def find(rel: str) -> Path:
    """``rel`` under DATA, else its shipped copy; the DATA path (missing) when neither exists."""
    for root in (DATA, SHIPPED):
        if (root / rel).exists():
            return root / rel
    return DATA / rel


def need(rel: str) -> Path:
    """The real data file ``rel`` (see :func:`find`); the test skips, naming it, when it is missing."""
    import pytest
    path = find(rel)
    if not path.exists():
        pytest.skip(f"real data missing: {rel} (not in {DATA} nor shipped in tests/data/real)")
    return path


def rel_name(path: Path) -> str:
    """``path`` relative to DATA or to the shipped copies (a test id that does not name the machine)."""
    for root in (DATA, SHIPPED):
        if path.is_relative_to(root):
            return str(path.relative_to(root))
    return path.name


def data_files() -> List[Path]:
    """Every UTF-8 text file of the real data: DATA's when present, else the shipped ones."""
    root = DATA if DATA.is_dir() and any(DATA.iterdir()) else SHIPPED
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file():
            try:
                p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            out.append(p)
    return out
