"""The toolbar's preset box: the preset training uses, and a new one picked.

Picking a preset restarts training at merge 0 with that preset's settings, after asking when trained merges
would be discarded (No puts the box back). The box follows the session's settings whoever changes them (the
training settings, a workspace, an example). Once a preset is picked, the keyboard goes back to the main view
(:func:`~bpe_lens_app.keys.hand_back_after_pick`): a presenter picks a preset and presses Space to step.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QComboBox

from ...keys import hand_back_after_pick
from ...session.session import PRESETS, make_config

__all__ = ["PresetBox"]


class PresetBox(QComboBox):
    """The presets by name, showing the one in use; ``session`` trains with the one picked when ``confirm()``
    says the merges trained may go (the window's question)."""

    def __init__(self, session, confirm: Callable[[], bool]) -> None:
        super().__init__(objectName="preset_box")
        self.session = session
        self.confirm = confirm
        self.addItems(list(PRESETS))
        self.setCurrentText(self.session.config.preset)
        hand_back_after_pick(self)
        self.textActivated.connect(self._on_text_activated)
        self.session.config_changed.connect(self._on_session_config_changed)

    def _on_text_activated(self, name: str) -> None:
        s = self.session
        if name != s.config.preset and self.confirm():
            s.set_config(make_config(name))
        else:
            self.setCurrentText(s.config.preset)

    def _on_session_config_changed(self, config) -> None:
        self.setCurrentText(config.preset)
