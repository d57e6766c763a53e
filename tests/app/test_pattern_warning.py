"""Typing a pattern that nests quantifiers shows the core's warning in the settings dialog (issue 23,
finding 15): the same words as the command line's ``warning:`` line, while OK still accepts it."""
from __future__ import annotations

from bpe_core.presets import make_config
from bpe_core.pretokenize.guard import pattern_warnings
from bpe_lens_app.features.training.settings_dialog import SettingsDialog


def test_a_nested_quantifier_is_warned_of_as_it_is_typed(qtbot):
    dialog = SettingsDialog(make_config("char-hf"))
    qtbot.addWidget(dialog)
    dialog.pretokenizer.setCurrentIndex(dialog.pretokenizer.findData("regex"))
    dialog.pattern.setText(r"(\w+)+")
    shown = dialog.pattern_status.text()
    assert shown.startswith("pattern OK, but ") and pattern_warnings(r"(\w+)+")[0] in shown, shown
    dialog.pattern.setText(r"\w+|[^\w\s]")
    assert dialog.pattern_status.text() == "pattern OK"
    dialog.pattern.setText(r"(\w+)+")
    assert dialog.config().pattern == r"(\w+)+"  # a warning, not a refusal
