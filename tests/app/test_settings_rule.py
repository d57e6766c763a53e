"""The training settings' "Training rule" (issue 26): each rule's fields, the config they make, and the
messages for settings that cannot make a run, driven with pytest-qt."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from bpe_core.presets import make_config
from bpe_lens_app.features.training.settings_dialog import SettingsDialog


def _open(qtbot, config=None) -> SettingsDialog:
    dialog = SettingsDialog(config or make_config("gpt2"))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _choose(dialog: SettingsDialog, text: str) -> None:
    box = dialog.rule_fields.rule
    box.setCurrentIndex(box.findText(text))


def _shown(dialog: SettingsDialog) -> list:
    f = dialog.rule_fields
    return [name for name, w in (("τ", f.ios), ("t", f.transition), ("languages", f.languages),
                                 ("mode", f.parity_mode)) if w.isVisible()]


def test_each_rule_shows_its_own_settings_and_sets_the_config(qtbot):
    dialog = _open(qtbot)
    assert dialog.rule_fields.rule.currentText() == "Plain BPE" and _shown(dialog) == []
    assert dialog.config().variant == "bpe"
    _choose(dialog, "PickyBPE")
    assert _shown(dialog) == ["τ"] and dialog.rule_fields.ios.value() == 0.9
    dialog.rule_fields.ios.setValue(0.6)
    config = dialog.config()
    assert (config.variant, config.ios_threshold, config.preset) == ("picky", 0.6, "gpt2")
    _choose(dialog, "SuperBPE")
    assert _shown(dialog) == ["t"]
    dialog.rule_fields.transition.setValue(500)
    assert (dialog.config().variant, dialog.config().transition) == ("superbpe", 500)
    _choose(dialog, "Parity-aware BPE")
    assert _shown(dialog) == ["languages", "mode"]
    dialog.rule_fields.parity_mode.setCurrentText("window")
    assert (dialog.config().variant, dialog.config().parity_mode) == ("parity", "window")


def test_a_picky_run_opens_with_its_settings_and_a_preset_change_keeps_the_rule(qtbot):
    dialog = _open(qtbot, make_config("gpt2", variant="picky", ios_threshold=0.75))
    assert dialog.rule_fields.rule.currentText() == "PickyBPE" and dialog.rule_fields.ios.value() == 0.75
    dialog.preset.setCurrentIndex(dialog.preset.findData("char-whitespace"))
    config = dialog.config()
    assert (config.preset, config.variant, config.ios_threshold) == ("char-whitespace", "picky", 0.75)


def test_parity_without_languages_says_so_and_keeps_the_dialog(qtbot, tmp_path):
    dialog = _open(qtbot)
    _choose(dialog, "Parity-aware BPE")
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert dialog.isVisible() and "needs its languages" in dialog.error.text()
    dialog.rule_fields.languages.setText(str(tmp_path / "nowhere"))
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert dialog.isVisible() and "no such file or folder" in dialog.error.text()
    dialog.rule_fields.languages.setText(str(tmp_path))  # a folder without language files: refused here too
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert dialog.isVisible() and ".txt" in dialog.error.text()
    (tmp_path / "eng.txt").write_text("the cat\n", encoding="utf-8")
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert not dialog.isVisible() and dialog.languages() == str(tmp_path)


def test_superbpe_on_a_preset_it_cannot_continue_gets_the_cores_message(qtbot):
    """char-whitespace adds an end-of-word symbol, which SuperBPE's stage 2 does not take: the dialog says so
    in the core's words when OK is pressed, and stays open."""
    dialog = _open(qtbot, make_config("char-whitespace"))
    _choose(dialog, "SuperBPE")
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok), Qt.LeftButton)
    assert dialog.isVisible() and "SuperBPE" in dialog.error.text() and "\n" not in dialog.error.text()
