"""Plays the user of the real app (``bpe_lens_app.__main__.main``) for the kill -9 test.

``python workspace_driver.py train MERGES TEXT [app args...]``: presses Train → Step until merge MERGES,
types TEXT in the encode pane, waits until the app's own autosave holds that merge and prints
``AUTOSAVED <path>``; then idles until it is killed.

``python workspace_driver.py restore [app args...]``: answers Yes to the restore offer the app shows at
start, waits until the window is back at the saved merge and prints ``STATE {json}`` (merge, encode
text, corpus, the merges taken); then quits cleanly, answering Yes to "discard the merges?" (the app
removes its autosave).

Nothing here saves or restores: the app does, through its autosave and its start-up offer. The driver
only clicks what a user would and reads what the window shows.
"""
from __future__ import annotations

import json
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from bpe_core.formats.workspace import read_workspace, saved_merges
from bpe_lens_app.__main__ import main, make_app
from bpe_lens_app.main_window import MainWindow


def window():
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)), None)


def train(merges: int, text: str):
    asked = [-1]  # the merge count when Step was last pressed

    def tick() -> None:
        w = window()
        if w is None or not w.session.is_loaded or w.session.is_running:
            return
        if w.encode.text() != text:
            w.encode.set_text(text)
        if w.session.merge_count < merges:
            if w.session.merge_count != asked[0]:  # as a user does: the next press once the last merge shows
                asked[0] = w.session.merge_count
                w.train_actions["step"].trigger()
            return
        saver = w.workspace.autosaver
        if saver.path.exists():
            saved = read_workspace(str(saver.path))
            if saved.position == merges and saved.encode_text == text:
                print("AUTOSAVED", saver.path, flush=True)
                timer.stop()

    timer = QTimer(interval=20)
    timer.timeout.connect(tick)
    return timer


def restore():
    answered, quitting = [], []

    def tick() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QMessageBox) and widget.isVisible():
                if widget.objectName() == "restore_box":
                    answered.append(widget.text() + " " + widget.informativeText())
                    widget.button(QMessageBox.Yes).click()
                elif widget.objectName() == "discard_box" and quitting:  # quitting discards the merges: yes
                    widget.button(QMessageBox.Yes).click()
        w = window()
        if quitting or not answered or w is None or not w.session.is_loaded or w.session.is_running \
                or w.workspace.is_busy():
            return
        quitting.append(True)
        state = {"offer": answered[0], "merge": w.session.merge_count, "encode_text": w.encode.text(),
                 "corpus": w.session.corpus.path, "merges": [list(m) for m in saved_merges(w.session.history)],
                 "title": w.windowTitle()}
        print("STATE", json.dumps(state), flush=True)
        QTimer.singleShot(0, QApplication.quit)  # outside this tick: the next ticks answer the question

    timer = QTimer(interval=20)
    timer.timeout.connect(tick)
    return timer


if __name__ == "__main__":
    mode = sys.argv[1]
    app = make_app()
    if mode == "train":
        driver, args = train(int(sys.argv[2]), sys.argv[3]), sys.argv[4:]
    else:
        driver, args = restore(), sys.argv[2:]
    driver.start()
    sys.exit(main(args))
