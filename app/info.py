"""``bpe-lens --version`` and ``bpe-lens --info``: what is installed and whether it works.

Both run without a display and without a QApplication (``--info`` is what a user pastes into a
bug report, often from a headless box): versions come from package metadata and ``QtCore``,
and the checks read the packaged resources the way the app does.
"""
from __future__ import annotations

import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Callable, List, Tuple

from bpe_core import BPELensError, __version__

LICENSE_NAME = "MIT"


def docs_links() -> List[Tuple[str, str]]:
    """(title, URL) of the documentation: the project's URLs from the package metadata, and the
    docs folder of a checkout when the app runs from one."""
    from bpe_core import resources

    links: List[Tuple[str, str]] = []
    try:
        for entry in metadata.metadata("bpe-lens").get_all("Project-URL") or []:
            title, _, url = entry.partition(", ")
            links.append((title, url))
    except metadata.PackageNotFoundError:
        pass
    checkout = resources.root().parent
    if (checkout / "pyproject.toml").is_file():  # running from a checkout: its docs folder
        for name in ("README.md", "docs/architecture.md", "docs/seeds.md"):
            if (checkout / name).is_file():
                links.append((name, (checkout / name).as_uri()))
    else:  # installed from a wheel: the README is the package's long description
        try:
            path = metadata.distribution("bpe-lens").locate_file("")
            found = sorted(Path(str(path)).glob("bpe_lens-*.dist-info/METADATA"))
        except metadata.PackageNotFoundError:
            found = []
        links += [("README (in the package metadata)", f.as_uri()) for f in found[:1]]
    return links


def about_html() -> str:
    """Help → About: version, licence, runtime versions and links to the docs."""
    rows = "".join(f"<tr><td>{name}</td><td>{value}</td></tr>" for name, value in versions()[1:])
    links = "".join(f'<li><a href="{url}">{title}</a></li>' for title, url in docs_links())
    return (f"<h3>BPE Lens {__version__}</h3><p>Make Byte-Pair Encoding visible: step a BPE trainer merge by "
            f"merge, inspect saved vocabularies.</p><p>Licence: {LICENSE_NAME}.</p><table>{rows}</table>"
            + (f"<p>Documentation:</p><ul>{links}</ul>" if links else ""))


def version_line(prog: str) -> str:
    return f"{prog} {__version__}"


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def _qt_versions() -> str:
    try:
        import PySide6
        from PySide6.QtCore import qVersion
    except ImportError as exc:  # the GUI cannot start, but --info should still say why
        return f"not importable ({exc})"
    return f"{qVersion()} (PySide6 {PySide6.__version__})"


#: the required dependencies (pyproject.toml's ``dependencies``) besides Qt
REQUIRED = ("pyqtgraph", "nltk", "numpy", "regex", "tqdm")
#: optional packages, each with the extra that installs it
OPTIONAL = (("tokenizers", "test"), ("tiktoken", "test"), ("sentencepiece", "sentencepiece"), ("dask", "dask"),
            ("distributed", "dask"), ("pyarrow", "parquet"), ("Pillow", "export"), ("zstandard", "zstd"))


def versions() -> List[Tuple[str, str]]:
    return ([("bpe-lens", __version__), ("Python", f"{platform.python_version()} ({sys.executable})"),
             ("Qt", _qt_versions())] + [(name, _dist_version(name)) for name in REQUIRED])


def extras() -> List[Tuple[str, str]]:
    """Each optional package's version, or the extra that installs it."""
    found = []
    for name, extra in OPTIONAL:
        version = _dist_version(name)
        found.append((name, version if version != "not installed" else f"not installed (pip install 'bpe-lens[{extra}]')"))
    return found


def fonts() -> List[Tuple[str, str]]:
    """The fonts Chinese and emoji chips need, as fontconfig finds them (Qt uses fontconfig on Linux)."""
    import shutil
    import subprocess

    if not shutil.which("fc-list"):
        return [("fonts", "unknown (fc-list not found)")]
    rows = []
    for what, query, package in (("CJK font", ":lang=zh", "fonts-wqy-microhei"),
                                 ("emoji font", ":charset=1f600", "fonts-noto-color-emoji")):
        try:
            out = subprocess.run(["fc-list", query, "family"], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            rows.append((what, f"unknown ({exc})"))
            continue
        families = sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})
        rows.append((what, ", ".join(families[:3]) if families else f"none: shown as boxes (apt install {package})"))
    return rows


def _check_resources() -> str:
    from bpe_core import resources
    return str(resources.root())


def _check_default_corpus() -> str:
    from bpe_core import make_config, resources
    from bpe_core.corpus import count_words

    from .session.session import DEFAULT_PRESET  # importing the session needs QtCore only, no display

    path = resources.default_corpus()
    counts = count_words(path, make_config(DEFAULT_PRESET), workers=1)
    return f"{path.name}: {sum(counts.values()):,} words ({len(counts):,} distinct, {DEFAULT_PRESET} pre-tokenizer)"


def _check_punkt() -> str:
    from bpe_core.pretokenize import punkt

    found = punkt.sentences("Mr. Bennet replied that he had not. But she told him all.")
    if len(found) != 2:
        raise BPELensError(f"the Punkt tables in {punkt.PUNKT_DIR} split a test text into {len(found)} "
                           "sentences, expected 2")
    return f"{punkt.PUNKT_DIR} ({len(punkt.load_params().abbrev_types):,} abbreviations)"


def _check_examples() -> str:
    from bpe_core import resources

    names = [p.name for p in resources.examples()]
    if not names:
        raise BPELensError(f"no example corpora in {resources.resource('examples')}")
    return f"{len(names)} files"


def _check_app_modules() -> str:
    """Import every module of the app, as the window will: a module missing from an install (a package left
    out of the wheel) fails here, not at the first start."""
    import importlib
    import pkgutil

    import bpe_lens_app

    names = [m.name for m in pkgutil.walk_packages(bpe_lens_app.__path__, "bpe_lens_app.")]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - named in the check's line
            raise BPELensError(f"{name} does not import ({type(exc).__name__}: {exc})") from None
    return f"{len(names)} modules import"


def _check_display() -> str:
    """Start Qt's GUI platform in a child process, as the app would: the app cannot start where this fails."""
    import subprocess

    from .display import NO_DISPLAY, missing_display

    problem = missing_display()
    if problem:
        raise BPELensError(problem)
    probe = ("import sys; from PySide6.QtGui import QGuiApplication; "
             "app = QGuiApplication(sys.argv[:1]); print(app.platformName())")
    try:
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise BPELensError("Qt did not start within 60 s") from None
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no message"])[-1]
        raise BPELensError(f"Qt could not start ({last}); {NO_DISPLAY}")
    return f"Qt starts on the '{out.stdout.strip()}' platform"


CHECKS: List[Tuple[str, Callable[[], str]]] = [
    ("resources", _check_resources), ("default corpus", _check_default_corpus),
    ("Punkt tables", _check_punkt), ("examples", _check_examples), ("app modules", _check_app_modules),
    ("display", _check_display)]


def print_info(out=None) -> int:
    """Print versions and run every check; 0 when all pass, 1 (with the failures named) when not."""
    out = out or sys.stdout
    width = 16
    for name, value in versions() + extras() + fonts():
        print(f"{name + ':':<{width}}{value}", file=out)
    failed = []
    for name, check in CHECKS:
        try:
            result = f"ok — {check()}"
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none is fatal here
            failed.append(name)
            result = f"FAILED — {exc}"
        print(f"{name + ':':<{width}}{result}", file=out)
    if failed:
        advice = "" if failed == ["display"] else "; reinstall bpe-lens"  # the display's line says what to do
        print(f"bpe-lens: {len(failed)} check(s) failed: {', '.join(failed)}{advice}", file=sys.stderr)
        return 1
    print("all checks passed", file=out)
    return 0
