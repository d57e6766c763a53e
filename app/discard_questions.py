"""The questions asked before trained merges are thrown away: new settings, another corpus, quitting."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def trained_merges(session) -> int:
    """Every merge trained so far, not only those up to the position (undone merges are lost too)."""
    return max(len(session.timeline), session.merge_count)


def confirm_reset(parent: QWidget, session) -> bool:
    """Ask before settings throw away trained merges (no question at merge 0)."""
    trained = trained_merges(session)
    if trained == 0:
        return True
    answer = QMessageBox.question(parent, "Restart training?",
                                  f"New settings restart training at merge 0; the {trained:,} "
                                  "merges so far are discarded. Continue?")
    return answer == QMessageBox.Yes


def discard_box(parent: QWidget, action: str, trained: int) -> QMessageBox:
    """The question whether ``action`` may discard the ``trained`` merges (No is the default answer)."""
    box = QMessageBox(QMessageBox.Question, "Discard trained merges?",
                      f"{action} discards the {trained:,} merges trained so far (File → Save vocabulary keeps "
                      "them). Continue?", QMessageBox.Yes | QMessageBox.No, parent)
    box.setObjectName("discard_box")
    box.setDefaultButton(QMessageBox.No)
    return box
