"""``bpe-lens --install-desktop`` / ``--uninstall-desktop``: a menu entry that starts this installation.

The ``.desktop`` file shipped as package data says ``Exec=bpe-lens``, which a desktop finds only when the
venv's ``bin`` is on its PATH — for the README's venv install it is not, so a copied entry does not
start. The installed entry names the absolute path of this installation's executable (or of this
Python with ``-m bpe_lens_app`` when there is none, as in a checkout) and of its icon, in the user's
XDG folders (``$XDG_DATA_HOME``, else ``~/.local/share``). Uninstalling removes exactly the two files
installing wrote, so it can be undone.
"""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import List, Optional

from bpe_core import resources
from bpe_core.formats import atomic_write_bytes, atomic_write_text

APP_ID = resources.desktop_file().stem  # "bpe-lens": the name window managers match the window to


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def entry_path() -> Path:
    return data_home() / "applications" / f"{APP_ID}.desktop"


def icon_path() -> Path:
    return data_home() / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png"


def command(python: Optional[str] = None) -> List[str]:
    """The command that starts this installation: the ``bpe-lens`` script beside this Python, else the module."""
    python = python or sys.executable
    script = Path(python).parent / "bpe-lens"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script.absolute())]
    return [str(Path(python).absolute()), "-m", "bpe_lens_app"]


def entry_text(exec_args: List[str], icon: Path) -> str:
    """The shipped entry with ``Exec`` and ``Icon`` made absolute.

    >>> text = entry_text(["/opt/venv/bin/bpe-lens"], Path("/srv/u/icon.png"))
    >>> [line for line in text.splitlines() if line.startswith(("Exec=", "Icon="))]
    ['Exec=/opt/venv/bin/bpe-lens %f', 'Icon=/srv/u/icon.png']
    """
    lines = []
    for line in resources.desktop_file().read_text(encoding="utf-8").splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + " ".join(shlex.quote(a) for a in exec_args) + " %f"
        elif line.startswith("Icon="):
            line = f"Icon={icon}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def install(out=None) -> int:
    """Write the entry and the icon; say where. Returns the exit code."""
    out = out or sys.stderr
    for path in (icon_path(), entry_path()):
        path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(icon_path(), resources.icon().read_bytes())
    atomic_write_text(entry_path(), entry_text(command(), icon_path()))
    print(f"bpe-lens: installed the menu entry {entry_path()} (starts {' '.join(command())}) "
          f"and its icon {icon_path()}; --uninstall-desktop removes them", file=out)
    return 0


def uninstall(out=None) -> int:
    """Remove what :func:`install` wrote (nothing else); say what was removed."""
    out = out or sys.stderr
    removed = []
    for path in (entry_path(), icon_path()):
        if path.is_file():
            path.unlink()
            removed.append(str(path))
    print("bpe-lens: removed " + (", ".join(removed) if removed else "nothing (no menu entry was installed)"),
          file=out)
    return 0
