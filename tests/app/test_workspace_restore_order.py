"""A workspace's restore is done when all of it is back: its run at its merge *and* its inspector tabs. The tabs
are read on a worker; when they came back after the run's seek, the vocabulary's "Opened …" replaced the
"Workspace restored at merge N" the user was told, and ``restored`` fired before the tabs were there (a race
the round-trip test met under load)."""
from __future__ import annotations

import time

import bpe_lens_app.features.workspace.restore as restore_module
from tests.app.test_workspace import restored, trained_window


def test_the_restore_ends_after_slow_tabs_and_says_so_last(qtbot, session, make_session, window_for, small_corpus,
                                                            tmp_path, monkeypatch):
    a = trained_window(qtbot, window_for(session), small_corpus, tmp_path, merges=25)
    path = tmp_path / "slow.bpelens"
    a.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    real_open = restore_module.open_vocabulary

    def slow_open(p):  # the tabs come back well after the seek of 25 merges
        time.sleep(1.0)
        return real_open(p)

    monkeypatch.setattr(restore_module, "open_vocabulary", slow_open)
    b = window_for(make_session())
    tabs_when_restored = []
    b.workspace.restored.connect(lambda _ws: tabs_when_restored.append(b.tabs.count()))
    restored(qtbot, b, path)
    assert tabs_when_restored == [2]  # the inspector tab is back when the restore says it is done
    qtbot.wait(200)
    assert "Workspace restored at merge 25" in b.statusBar().currentMessage()


def test_opening_a_workspace_in_the_window_that_has_its_tab_does_not_open_the_tab_twice(qtbot, session, window_for,
                                                                                         small_corpus, tmp_path):
    a = trained_window(qtbot, window_for(session), small_corpus, tmp_path, merges=5)
    assert a.tabs.count() == 2  # Training and the vocabulary's tab
    path = tmp_path / "again.bpelens"
    a.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    restored(qtbot, a, path)
    qtbot.wait(200)
    assert [a.tabs.tabText(i) for i in range(a.tabs.count())].count(a.tabs.tabText(1)) == 1
    assert a.tabs.count() == 2
