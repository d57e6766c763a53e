"""Where the real data lives (../shared/data next to the repository)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "resources" / "examples"
