"""Say which of pyproject.toml's requirements the running Python does not meet (used by bootstrap.sh).

``python scripts/requirements_met.py [EXTRA ...]`` prints one unmet requirement a line (missing, or a
version outside the declared range) and exits 1 when there is any, else exits 0 silently. The project
itself must be installed from this checkout (an editable install of another checkout, or a wheel,
does not count). It reads the requirements from pyproject.toml, so no list is kept by hand: a new
dependency is checked the day it is declared.

Only the standard library and pip's own vendored ``packaging`` are used: it runs in a venv that has
nothing installed but pip.
"""
from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Iterable, List

try:
    from packaging.requirements import Requirement
except ImportError:  # a bare venv: pip carries it
    from pip._vendor.packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def declared(extras: Iterable[str], pyproject: Path = ROOT / "pyproject.toml") -> List[str]:
    """The dependencies and those of each named extra, as written in ``pyproject``."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    found = list(project.get("dependencies", []))
    for extra in extras:
        found += project.get("optional-dependencies", {}).get(extra, [])
    return found


def unmet(requirements: Iterable[str]) -> List[str]:
    """Each requirement that is not installed, or installed at a version outside its range, with why."""
    problems = []
    for text in requirements:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate():
            continue
        names = [req.name] + [f"{req.name}[{extra}]" for extra in sorted(req.extras)]
        try:
            version = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            problems.append(f"{names[-1]}: not installed (needs {req.specifier or 'any version'})")
            continue
        if req.specifier and not req.specifier.contains(version, prereleases=True):
            problems.append(f"{req.name}: {version} installed, needs {req.specifier}")
        for extra in sorted(req.extras):  # dask[distributed]: the extra's own requirements
            problems += unmet(_extra_requirements(req.name, extra))
    return problems


def _extra_requirements(name: str, extra: str) -> List[str]:
    out = []
    for text in metadata.requires(name) or []:
        req = Requirement(text)
        if req.marker is not None and req.marker.evaluate({"extra": extra}) and not req.marker.evaluate({"extra": ""}):
            req.marker = None
            out.append(str(req))
    return out


def project_installed_here() -> List[str]:
    """The project itself, installed from this checkout (editable): else one line saying what is there."""
    try:
        dist = metadata.distribution("bpe-lens")
    except metadata.PackageNotFoundError:
        return ["bpe-lens: not installed"]
    try:
        import bpe_core
    except ImportError:
        return ["bpe-lens: installed but bpe_core does not import"]
    where = Path(bpe_core.__file__).resolve().parent.parent
    if where != ROOT:
        return [f"bpe-lens: installed from {where}, not from this checkout ({dist.version})"]
    return []


def main(argv: List[str]) -> int:
    problems = project_installed_here() + unmet(declared(argv))
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
