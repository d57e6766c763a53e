"""pyproject.toml lists every package (the layout maps app/ and resources/ to other import names, so
setuptools cannot find them itself) and every data file the code reads through bpe_core.resources."""
from __future__ import annotations

import tomllib
from fnmatch import fnmatch

from bpe_core import __version__, resources

from .paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUP = PYPROJECT["tool"]["setuptools"]
DIRS = {name: ROOT / folder for name, folder in SETUP["package-dir"].items()}


def folder_of(package: str):
    top, *rest = package.split(".")
    return DIRS.get(top, ROOT / top).joinpath(*rest)


def test_every_folder_with_code_or_data_is_a_listed_package():
    listed = set(SETUP["packages"])
    for top in ("bpe_core", "bpe_lens_app", "bpe_lens_resources"):
        base = folder_of(top)
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            assert ".".join((top, *rel)) in listed, init
    for folder in folder_of("bpe_lens_resources").rglob("*"):
        if folder.is_dir() and folder.name != "__pycache__":
            name = ".".join(("bpe_lens_resources", *folder.relative_to(folder_of("bpe_lens_resources")).parts))
            assert name in listed, f"{folder}: data folder not listed as a package (its files would not install)"


def test_every_resource_file_matches_a_package_data_pattern():
    data = SETUP["package-data"]
    root = folder_of("bpe_lens_resources")
    for path in root.rglob("*"):
        if not path.is_file() or path.suffix == ".py" or path.name.startswith(".") or "__pycache__" in path.parts:
            continue
        package = ".".join(("bpe_lens_resources", *path.parent.relative_to(root).parts))
        assert any(fnmatch(path.name, pattern) for pattern in data.get(package, [])), path


def test_the_files_the_code_reads_exist():
    for path in (resources.default_corpus(), resources.icon(), resources.desktop_file(), resources.punkt_dir()):
        assert path.exists(), path
    shipped = sorted(p.name for p in (ROOT / "resources" / "examples").glob("*.txt"))
    assert [p.name for p in resources.examples()] == shipped and len(shipped) >= 5


def test_metadata():
    project = PYPROJECT["project"]
    assert project["version"] == __version__
    assert project["license"] == "MIT" and (ROOT / "LICENSE").is_file() and (ROOT / "CHANGELOG.md").is_file()
    assert any(dep.startswith("tqdm") for dep in project["dependencies"])
    assert (ROOT / "bpe_core" / "py.typed").is_file() and "py.typed" in SETUP["package-data"]["bpe_core"]
