"""The app's half of issue 14: a damaged vocabulary or a failed save is one message, and
nothing changes (open tabs, trained merges, the old file on disk)."""
from __future__ import annotations

import errno
import json
import os

import pytest

from bpe_core.formats.detect import write_vocabulary
from bpe_core.model import BPEModel


def _native(tmp_path, name, vocab, merges=()):
    p = tmp_path / name
    p.write_text(json.dumps({"format": "bpe-lens", "version": 1, "unit": "chars", "vocab": vocab,
                             "merges": list(merges)}), encoding="utf-8")
    return p


@pytest.mark.parametrize("name, content, message", [
    ("huge.json", {"a": 0, "b": 10**12}, "huge.json: id 1000000000000 is far beyond its 2 entries "
                                         "(a corrupt or hand-edited file)"),
    ("list.json", [], 'list.json: "vocab" is a JSON array, expected an object'),
])
def test_a_damaged_vocabulary_is_one_message_and_keeps_the_tabs(qtbot, loaded_window, tmp_path, name, content,
                                                                  message):
    w = loaded_window
    good = tmp_path / "good.json"
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), good, "native")
    with qtbot.waitSignal(w.session.vocabulary_opened, timeout=10000):
        w.open_vocabulary_path(str(good))
    w.session.step(2)
    tabs = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    bad = _native(tmp_path, name, content)
    with qtbot.waitSignal(w.session.error_raised, timeout=10000) as raised:
        w.open_vocabulary_path(str(bad))
    assert raised.args[0].endswith(message) and "Unexpected error" not in raised.args[0]
    w.error_box.close()
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == tabs
    assert w.session.merge_count == 2


def test_a_full_disk_while_exporting_merges_keeps_the_old_csv(qtbot, loaded_window, tmp_path, monkeypatch):
    from bpe_lens_app.features.exports import files as export

    w = loaded_window
    w.session.step(3)
    out = tmp_path / "merges.csv"
    out.write_text("old\n", encoding="utf-8")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched, pytest.raises(Exception) as err:
        patched.setattr(os, "fsync", full)
        export.export_merges_csv(w.session.history, str(out))
    assert str(err.value) == f"{out}: write failed (No space left on device)"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith((".merges", "merges"))) == ["merges.csv"]
    assert out.read_text(encoding="utf-8") == "old\n"
    export.export_merges_csv(w.session.history, str(out))
    assert out.read_text(encoding="utf-8").count("\n") == 4


def test_start_up_cleans_what_killed_saves_left_in_the_folders_in_use(tmp_path):
    """Issue 14: temp files are cleaned at start-up (the folders of recent files and the last one)."""
    from PySide6.QtCore import QSettings

    from bpe_lens_app.runtime.settings_store import clean_stale_temps, folders_in_use, remember

    used, other = tmp_path / "used", tmp_path / "other"
    used.mkdir()
    other.mkdir()
    (used / "vocab.json").write_text("{}", encoding="utf-8")
    dead = 2 ** 22 + 12345  # above Linux's default pid_max: no such process
    stale = used / f".vocab.json.bpe-lens-tmp-{dead}-abcd"
    stale.write_text("half a file", encoding="utf-8")
    untouched = other / f".vocab.json.bpe-lens-tmp-{dead}-abcd"  # not a folder in use: left alone
    untouched.write_text("x", encoding="utf-8")
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    remember(settings, "recent_vocabularies", str(used / "vocab.json"))
    assert folders_in_use(settings) == [str(used)]
    assert clean_stale_temps(settings) == [stale.name]
    assert not stale.exists() and untouched.exists() and (used / "vocab.json").read_text(encoding="utf-8") == "{}"


def test_a_killed_apps_autosave_temps_are_removed_at_the_next_start(qtbot, tmp_path):
    """Issue 23, finding 19: ``.autosave-PID.bpelens.bpe-lens-tmp-*`` of a killed app stayed forever; the next
    app's autosaver sweeps its data folder (a live app's temp files are left alone)."""
    from bpe_lens_app.features.workspace.autosave import Autosaver

    dead = 2 ** 22 + 12345  # above Linux's default pid_max: no such process
    stale = tmp_path / f".autosave-{dead}.bpelens.bpe-lens-tmp-{dead}-abcd1234"
    stale.write_text("half a workspace", encoding="utf-8")
    live = tmp_path / f".autosave-{os.getppid()}.bpelens.bpe-lens-tmp-{os.getppid()}-abcd1234"
    live.write_text("being written", encoding="utf-8")
    crashed = tmp_path / f"autosave-{dead}.bpelens"  # the crash marker itself is offered back, not removed
    crashed.write_text("{}", encoding="utf-8")
    saver = Autosaver(lambda: None, tmp_path)
    assert saver.cleaned == [stale.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, crashed.name])
