"""Training settings: a preset and the fields a user may override.

Choosing a preset fills every field with its defaults; :meth:`SettingsDialog.config` builds the
:class:`TrainerConfig` through ``make_config(preset, **overrides)`` so a bad combination is refused
with the core's own message, shown in the dialog (the dialog stays open, nothing is lost).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from bpe_core.presets import PRESETS, make_config
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
from bpe_core.training.trainer import check_config
from bpe_core.types import TIE_BREAKS, BPELensError, TrainerConfig

from .theme import error_text_color


def preset_description(name: str) -> str:
    preset = PRESETS[name]
    return getattr(preset, "description", preset if isinstance(preset, str) else "")


def pretokenizer_choices() -> List[Tuple[str, str]]:
    """(name, description) of every pre-tokenizer the core offers."""
    return [(name, p.description) for name, p in PRETOKENIZERS.items()]


class SettingsDialog(QDialog):
    def __init__(self, config: TrainerConfig, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Training settings")
        self._base = config
        self.preset = QComboBox(self)
        for name in PRESETS:
            self.preset.addItem(name, name)
            self.preset.setItemData(self.preset.count() - 1, preset_description(name), 3)  # ToolTipRole
        self.preset_info = QLabel(self, wordWrap=True)
        self.pretokenizer = QComboBox(self)
        for name, description in pretokenizer_choices():
            self.pretokenizer.addItem(name, name)
            self.pretokenizer.setItemData(self.pretokenizer.count() - 1, description, 3)
        self.unit = QComboBox(self)
        self.unit.addItems(["chars", "bytes"])
        self.suffix = QLineEdit(self, placeholderText="none (e.g. </w>)")
        self.lowercase = QCheckBox("lowercase the text before pre-tokenizing", self)
        self.target_kind = QComboBox(self)
        self.target_kind.addItems(["vocab size", "merges"])
        self.target = QSpinBox(self, minimum=1, maximum=1_000_000)
        self.target.setGroupSeparatorShown(True)
        self.min_frequency = QSpinBox(self, minimum=0, maximum=1_000_000)
        self.min_frequency.setToolTip("Stop when the best pair occurs fewer times than this (0: never)")
        self.tie_break = QComboBox(self)
        self.tie_break.addItems(list(TIE_BREAKS))
        self.tie_break.setToolTip("Which pair wins when counts are equal: first seen in the corpus (the seeds), "
                                  "Hugging Face's smallest ids, or alphabetical")
        self.error = QLabel(self, objectName="settings_error", wordWrap=True)
        self.error.setStyleSheet(f"color: {error_text_color(self.palette()).name()}")
        target = QHBoxLayout()
        target.addWidget(self.target_kind)
        target.addWidget(self.target, 1)
        form = QFormLayout()
        form.addRow("Preset", self.preset)
        form.addRow("", self.preset_info)
        form.addRow("Pre-tokenizer", self.pretokenizer)
        form.addRow("Units", self.unit)
        form.addRow("End-of-word suffix", self.suffix)
        form.addRow("", self.lowercase)
        form.addRow("Stop at", target)
        form.addRow("Min frequency", self.min_frequency)
        form.addRow("Tie rule", self.tie_break)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel | QDialogButtonBox.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.RestoreDefaults).setText("Preset defaults")
        buttons.button(QDialogButtonBox.RestoreDefaults).clicked.connect(
            lambda: self.show_config(make_config(self.preset.currentData())))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(QLabel("Changing the settings counts the corpus again and restarts at merge 0.", self))
        layout.addWidget(buttons)
        self.show_config(config)
        self.preset.currentIndexChanged.connect(self._on_preset_changed)

    def show_config(self, config: TrainerConfig) -> None:
        """Fill the fields from ``config``."""
        self.preset.blockSignals(True)
        index = self.preset.findData(config.preset)
        self.preset.setCurrentIndex(max(index, 0))
        self.preset.blockSignals(False)
        self.preset_info.setText(preset_description(self.preset.currentData()))
        if self.pretokenizer.findData(config.pretokenizer) < 0:
            self.pretokenizer.addItem(config.pretokenizer, config.pretokenizer)
        self.pretokenizer.setCurrentIndex(self.pretokenizer.findData(config.pretokenizer))
        self.unit.setCurrentText(config.unit)
        self.suffix.setText(config.end_of_word_suffix)
        self.lowercase.setChecked(config.lowercase)
        if config.num_merges is not None:
            self.target_kind.setCurrentText("merges")
            self.target.setValue(config.num_merges)
        else:
            self.target_kind.setCurrentText("vocab size")
            self.target.setValue(config.vocab_size or 1000)
        self.min_frequency.setValue(config.min_frequency)
        self.tie_break.setCurrentText(config.tie_break)
        self.error.clear()

    def _on_preset_changed(self, _index: int) -> None:
        self.show_config(make_config(self.preset.currentData()))

    def config(self) -> TrainerConfig:
        """The settings as a config; raises :class:`BPELensError` for a bad combination."""
        merges = self.target_kind.currentText() == "merges"
        config = make_config(
            self.preset.currentData(), pretokenizer=self.pretokenizer.currentData(), unit=self.unit.currentText(),
            end_of_word_suffix=self.suffix.text(), lowercase=self.lowercase.isChecked(),
            num_merges=self.target.value() if merges else None,
            vocab_size=None if merges else self.target.value(),
            min_frequency=self.min_frequency.value(), tie_break=self.tie_break.currentText())
        check_config(config)
        return config

    def accept(self) -> None:
        try:
            self.config()
        except (BPELensError, ValueError, TypeError) as exc:
            self.error.setText(str(exc))
            return
        super().accept()
