"""scripts/bootstrap.sh and the requirement check it uses (issue 25): it cannot be fooled by a venv that
lacks some packages, it says in one line when Python is too old, and it reads the requirements from
pyproject.toml instead of a hand-kept list."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import requirements_met  # noqa: E402


def test_every_declared_requirement_is_checked():
    """The packages the old hand-kept import list left out are among those checked."""
    names = {r.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip().lower()
             for r in requirements_met.declared(["test"])}
    assert {"nltk", "regex", "numpy", "pyqtgraph", "sentencepiece", "hypothesis", "pyside6-essentials",
            "tokenizers", "tiktoken", "dask", "pyarrow", "pillow", "tqdm", "pytest-qt"} <= names


def test_a_missing_package_and_a_version_below_its_bound_are_unmet():
    found = requirements_met.unmet(["surely-not-installed-bpe-lens-probe>=1", "pytest>=999", "pytest>=1"])
    assert found == ["surely-not-installed-bpe-lens-probe: not installed (needs >=1)",
                     f"pytest: {__import__('pytest').__version__} installed, needs >=999"]


def test_the_running_venv_meets_them_all():
    assert requirements_met.main(["test"]) == 0


def test_an_old_python_is_said_in_one_line(tmp_path):
    fake = tmp_path / "python3.10"
    fake.write_text('#!/bin/sh\nif [ "$1" = "-V" ]; then echo "Python 3.10.12"; exit 0; fi\nexit 1\n')
    fake.chmod(0o755)
    out = subprocess.run(["bash", str(ROOT / "scripts" / "bootstrap.sh")], capture_output=True, text=True,
                         env={**os.environ, "PYTHON": str(fake), "BPE_LENS_VENV": str(tmp_path / "venv")})
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        f"bootstrap: BPE Lens needs Python 3.11 or newer; {fake} is Python 3.10.12 "
        "(set PYTHON=/path/to/python3.11)"]
    assert not (tmp_path / "venv").exists()


@pytest.mark.slow
def test_bootstrap_installs_again_what_was_removed_from_the_venv(tmp_path):
    """A venv made by bootstrap, then nltk, regex and numpy uninstalled: bootstrap exits 0 only once they
    are back (the old check imported a fixed list without them and said all was well)."""
    venv = tmp_path / "venv"
    env = {**os.environ, "BPE_LENS_VENV": str(venv)}
    run = lambda *cmd: subprocess.run(list(cmd), capture_output=True, text=True, env=env, cwd=ROOT)  # noqa: E731
    first = run("bash", "scripts/bootstrap.sh")
    assert first.returncode == 0, first.stderr
    removed = run(str(venv / "bin" / "python"), "-m", "pip", "uninstall", "-y", "-q", "nltk", "regex", "numpy")
    assert removed.returncode == 0, removed.stderr
    assert run(str(venv / "bin" / "python"), "scripts/requirements_met.py", "test").returncode == 1
    again = run("bash", "scripts/bootstrap.sh")
    assert again.returncode == 0, again.stderr
    check = run(str(venv / "bin" / "python"), "-c", "import nltk, regex, numpy, bpe_core.pretokenize.punkt")
    assert check.returncode == 0, check.stderr
