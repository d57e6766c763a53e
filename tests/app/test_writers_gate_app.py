"""One gate, one writer (issue 23), the app's half: every export a user can start — each File → Save / Export
entry and the health tab's Export CSV — is enumerated from the window itself (a new one fails
:func:`test_every_export_is_enumerated` until it is added to :data:`EXPORTS`), then driven as a user does
(menu action, the file dialog answering) and shown to:

* refuse the corpus as its output, by its path, a symlink or a hard link (the corpus stays byte for byte);
* keep the old file on a full disk, mid-write or at the fsync, with no temp file left and the file named;
* write only through the atomic writer (``bpe_core.formats.atomic``): a temp file renamed in;
* leave the old file when the app is killed with SIGKILL half-way through writing (slow: a process each).
"""
from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QPushButton

from bpe_core.formats.temps import TEMP_MARK
from tests.core.test_writers_gate import DiskFills

ROOT = Path(__file__).resolve().parents[2]

#: (what starts the export, the file name it is given); charts both as PNG and SVG
EXPORTS = [
    ("action_save_vocabulary", "v.json"),
    ("action_export_pairs", "pairs.png"), ("action_export_pairs", "pairs.svg"),
    ("action_export_history", "history.png"), ("action_export_history", "history.svg"),
    ("action_export_merges", "merges.csv"),
    ("action_export_animation", "merges.gif"), ("action_export_animation", "merges.png"),
    ("action_export_word_strip", "strip.svg"),
    ("action_export_merge_tree", "tree.svg"),
    ("action_save_workspace", "w.bpelens"),
    ("health_export", "health.csv"),
]
IDS = [f"{name}-{file}" for name, file in EXPORTS]


def _file_menu_exports(window) -> set:
    """Every action of the File menu (and its submenus) that saves or exports a file."""
    found, menus = set(), [window.menuBar().actions()[0].menu()]
    while menus:
        for action in menus.pop().actions():
            if action.isSeparator():
                continue
            if action.menu() is not None:
                menus.append(action.menu())
            elif re.match(r"(Save|Export)\b", action.text()) or action in window.menus["export"].actions():
                found.add(action.objectName())
    return found


def _health_pane(qtbot, window, monkeypatch):
    from bpe_lens_app.features.health.pane import HealthPane

    window.session.workbench.add_vocabulary(window.session.model(), name="mine")  # its inspector tab in front
    with monkeypatch.context() as m:
        m.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([window.session.corpus.path], ""))
        window.findChild(QAction, "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    assert isinstance(pane, HealthPane)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    return pane


@pytest.fixture
def ready(qtbot, loaded_window, monkeypatch):
    """The loaded window trained a few merges, a word selected, with a health tab: every export can run."""
    w = loaded_window
    w.session.step(5)
    qtbot.waitUntil(lambda: w.session.merge_count == 5, timeout=10000)
    w.slide_exports.selected_word = 0
    pane = _health_pane(qtbot, w, monkeypatch)
    w.tabs.setCurrentIndex(0)
    return w, pane


def test_every_export_is_enumerated(ready) -> None:
    w, pane = ready
    buttons = {b.objectName() for b in pane.findChildren(QPushButton) if re.match(r"(Save|Export)\b", b.text())}
    assert _file_menu_exports(w) | buttons == {name for name, _ in EXPORTS}


class Export:
    """Runs one export as a user does and collects what the app says."""

    def __init__(self, qtbot, window, pane, monkeypatch) -> None:
        self.qtbot, self.w, self.pane, self.m = qtbot, window, pane, monkeypatch
        self.said: List[str] = []
        self.proposed: List[str] = []
        monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a, **k: self.said.append(text))
        monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (k.get("text") or "the", True))
        window.session.error_raised.connect(self.said.append)
        pane.failed.connect(self.said.append)

    def __call__(self, name: str, path: Path) -> str:
        """Export ``name`` to ``path``; what the app said (an empty string when it saved)."""
        def answer(parent, title, start, *a, **k):
            self.proposed.append(start)
            return str(path), ""

        self.m.setattr(QFileDialog, "getSaveFileName", answer)
        self.said.clear()
        if name == "health_export":
            self.pane.export_button.click()
        else:
            self.w.findChild(QAction, name).trigger()
        if name == "action_export_animation":
            dialog = self.w.slide_exports.dialog
            dialog.last.setValue(3)
            dialog.path.setText(str(path))
            dialog.export_button.click()
            self.qtbot.waitUntil(lambda: not dialog.busy, timeout=30000)
            text = dialog.status.text()
            dialog.close()
            return "" if text.startswith("Saved") else text
        if name == "action_save_workspace":
            ws = self.w.workspace
            self.qtbot.waitUntil(lambda: not ws._saves.busy, timeout=20000)
            self.qtbot.wait(50)  # the result's signal
            box = getattr(ws, "message", None)
            self.said += [box.text()] if box is not None and box.isVisible() else []
            if box is not None:
                box.close()
        box = getattr(self.w, "error_box", None)  # the main window's own exports say it in a box
        if box is not None and box.isVisible():
            self.said.append(box.text())
            box.close()
        return "\n".join(self.said)


@pytest.fixture
def export(qtbot, ready, monkeypatch):
    w, pane = ready
    return Export(qtbot, w, pane, monkeypatch)


def leftovers(folder: Path) -> List[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_MARK in p.name)


@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_every_export_writes_a_file(export, tmp_path, name, file) -> None:
    out = tmp_path / "out" / file
    out.parent.mkdir()
    assert export(name, out) == "" and out.stat().st_size > 0 and not leftovers(out.parent)


@pytest.mark.parametrize("link", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_no_export_replaces_the_corpus(export, tmp_path, name, file, link) -> None:
    corpus = Path(export.w.session.corpus.path)
    before = corpus.read_bytes()
    out = corpus
    if link != "same path":
        out = tmp_path / f"{link.replace(' ', '-')}-{file}"
        out.symlink_to(corpus) if link == "symlink" else os.link(corpus, out)
    said = export(name, out)
    refused = "is an input of this command; an output never replaces an input" in said
    # by its own name, the SVG exports add ".svg" and the animation wants a picture's suffix: not the corpus
    assert refused or (link == "same path" and name in ("action_export_animation", "action_export_word_strip",
                                                       "action_export_merge_tree")), said
    assert corpus.read_bytes() == before and not leftovers(corpus.parent)


@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_no_export_replaces_an_open_vocabulary(qtbot, export, tmp_path, name, file) -> None:
    """A vocabulary open in a tab is an input too (through a link named like the export's file)."""
    from bpe_core.formats.detect import write_vocabulary

    vocab = tmp_path / "opened.json"
    write_vocabulary(export.w.session.model(), vocab, "native")
    with qtbot.waitSignal(export.w.session.vocabulary_opened, timeout=10000):
        export.w.open_vocabulary_path(str(vocab))
    export.w.tabs.setCurrentIndex(0)
    before = vocab.read_bytes()
    out = tmp_path / file
    out.symlink_to(vocab)
    said = export(name, out)
    assert f"{out}: is an input of this command; an output never replaces an input" in said, said
    assert vocab.read_bytes() == before and not leftovers(tmp_path)


@pytest.mark.parametrize("fault", ["mid-write", "fsync"])
@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_a_full_disk_keeps_the_old_file(export, tmp_path, monkeypatch, name, file, fault) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / file
    with monkeypatch.context() as m:
        disk = DiskFills(m)
        assert export(name, out) == ""
    out.write_bytes(b"old")
    with monkeypatch.context() as m:
        if fault == "fsync":
            m.setattr(os, "fsync", _full)
        else:
            DiskFills(m, room=disk.first_file() // 2)
        said = export(name, out)
    assert f"{out}: write failed (No space left on device)" in said, said
    assert out.read_bytes() == b"old" and not leftovers(folder)


def _full(*a):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_every_export_goes_through_the_atomic_writer(export, tmp_path, monkeypatch, name, file) -> None:
    """Each file is made by a temp file renamed onto it (what makes kill -9 harmless): the target is only
    ever touched by ``os.replace``."""
    out = tmp_path / file
    renamed: List[Optional[str]] = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (renamed.append(os.fspath(dst)), real(src, dst))[1])
    assert export(name, out) == ""
    assert str(out) in renamed and TEMP_MARK not in "".join(os.listdir(tmp_path))


# -- kill -9 in the middle of each export: the old file, never a part of the new one ----------------------
HANG_MARKER = os.environ.get("BPE_LENS_HANG_MARKER")


@pytest.mark.skipif(not HANG_MARKER, reason="run by test_kill_9_mid_export_leaves_the_old_file in its own process")
@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_export_hanging_mid_write(export, monkeypatch, name, file) -> None:
    """Half of the export's first file is written, then the process waits to be killed."""
    real = os.fdopen

    class File:
        def __init__(self, f) -> None:
            self._f = f

        def write(self, data):
            self._f.write(data[: max(1, len(data) // 2)])
            self._f.flush()
            open(HANG_MARKER, "w").close()
            time.sleep(120)

        def __getattr__(self, attr):
            return getattr(self._f, attr)

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self._f.close()

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: File(real(fd, *a, **k)))
    export(name, Path(os.environ["BPE_LENS_HANG_OUT"]))


@pytest.mark.slow
@pytest.mark.parametrize("name, file", EXPORTS, ids=IDS)
def test_kill_9_mid_export_leaves_the_old_file(tmp_path, name, file) -> None:
    from bpe_core.formats.temps import remove_stale_temps

    out, marker = tmp_path / file, tmp_path / "marker"
    out.write_bytes(b"old")
    env = dict(os.environ, BPE_LENS_HANG_MARKER=str(marker), BPE_LENS_HANG_OUT=str(out), PYTHONPATH=str(ROOT))
    test = f"{Path(__file__).relative_to(ROOT)}::test_export_hanging_mid_write[{name}-{file}]"
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(2400):
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), proc.stdout.read().decode()[-3000:] if proc.poll() is not None else "no write"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    assert out.read_bytes() == b"old"  # not a part of the new file
    remove_stale_temps(out)  # what the next save (or the next start) does
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, marker.name])


#: every module of the app that writes a file -> the tests that drive its writes; a user's file goes through the
#: gate (``check_output``/``check_save``, then the atomic writer). A module that starts writing fails
#: :func:`test_every_write_site_is_enumerated` until it is listed here with its tests.
WRITE_SITES = {
    "app/features/exports/actions.py": ("tests/app/test_writers_gate_app.py",),
    "app/features/exports/files.py": ("tests/app/test_writers_gate_app.py",),
    "app/features/measures/actions.py": ("tests/app/test_measures_journey.py",),
    "app/features/inspector/biography_pane.py": ("tests/app/test_biography.py",),
    "app/features/workspace/actions.py": ("tests/app/test_writers_gate_app.py",),
}
#: writers of the app's own files (not a path a user gives: no input can be there), atomic all the same
OWN_FILES = {
    "app/desktop_entry.py": "the desktop entry and its icon, under the user's data folder",
    "app/features/workspace/autosave.py": "the autosave, in the profile (a crashed one moved aside)",
    "app/demo.py": "the screenshots scripts/screenshots.py asks for, into the folder it names",
}
_WRITES = re.compile(r"atomic_write_(?:text|bytes)\(|\.write_(?:text|bytes)\(|open\([^)]*['\"][wax]b?\+?['\"]"
                     r"|\.grab\(\)\.save\(|shutil\.(?:copy|move)|os\.replace\(|\.rename\(")


def test_every_write_site_is_enumerated() -> None:
    found = {p.relative_to(ROOT).as_posix() for p in (ROOT / "app").rglob("*.py") if _WRITES.search(p.read_text())}
    assert found == set(WRITE_SITES) | set(OWN_FILES)
    for module, tests in WRITE_SITES.items():
        text = (ROOT / module).read_text()
        assert "check_output(" in text or "check_save(" in text or "export_chart(" in text, module
        assert all((ROOT / t).is_file() for t in tests)
