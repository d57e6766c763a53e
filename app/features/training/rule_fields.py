"""The training settings' "Training rule": plain BPE, PickyBPE (τ), SuperBPE (transition t) or parity-aware
BPE (a folder of one file per language or a word-count table with a language column, and the mode).

The fields set ``TrainerConfig.variant`` and its settings (``ios_threshold``, ``transition``,
``parity_mode``); only the chosen rule's fields show. The core checks the values (``check_config``); the
languages' source is not a config field: the window gives it to the parity run's trainer.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLineEdit,
                               QPushButton, QSpinBox, QWidget)

from bpe_core import BPELensError, TrainerConfig
from bpe_core.workbench import check_languages

#: (data, text, tooltip) of each rule, in the order offered
RULES = (
    ("bpe", "Plain BPE", "Classic BPE: the most frequent pair merges, nothing is ever removed"),
    ("picky", "PickyBPE", "After each merge, a parent token whose IoS reaches τ is removed and its other "
                          "occurrences split (Chizhov et al. 2024)"),
    ("superbpe", "SuperBPE", "Plain BPE up to the transition point t, then merges across whitespace "
                             "(Liu et al. 2025): at t, Train → Continue as SuperBPE from here"),
    ("parity", "Parity-aware BPE", "Each merge is chosen for the language compressed worst so far "
                                   "(Foroutan et al. 2025); needs one .txt file per language (dev text in "
                                   "its dev/, else the training text is measured)"),
)
PARITY_MODES = ("base", "window", "hybrid", "ratio")
DEFAULT_TRANSITION = 1000


class RuleFields(QWidget):
    """The rule's choice and the settings of the rule chosen (the others hidden)."""

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.rule = QComboBox(self, objectName="training_rule")
        for data, text, tip in RULES:
            self.rule.addItem(text, data)
            self.rule.setItemData(self.rule.count() - 1, tip, 3)  # ToolTipRole
        self.ios = QDoubleSpinBox(self, objectName="ios_threshold", minimum=0.0, maximum=1.0, singleStep=0.05,
                                  decimals=2, value=0.9)
        self.ios.setToolTip("τ: a token whose IoS (the share of its occurrences the merge used) reaches this is "
                            "removed; 1.0 removes only tokens the merge used up (plain BPE's merges)")
        self.transition = QSpinBox(self, objectName="transition", minimum=0, maximum=1_000_000,
                                   value=DEFAULT_TRANSITION)
        self.transition.setGroupSeparatorShown(True)
        self.transition.setToolTip("t: the merges of stage 1 (plain BPE); the run stops there, and Training → "
                                   "Continue as SuperBPE from here makes stage 2")
        self.languages = QLineEdit(self, objectName="languages",
                                   placeholderText="a folder of one .txt file per language, or a word-count table")
        self.browse = QPushButton("Folder…", self)
        self.browse.clicked.connect(self._on_browse_clicked)
        self.parity_mode = QComboBox(self, objectName="parity_mode")
        self.parity_mode.addItems(list(PARITY_MODES))
        self.parity_mode.setToolTip("How the language is chosen, as the reference's options: base (worst so far), "
                                    "window (a moving window), hybrid (global merges first), ratio (target ratios)")
        where = QHBoxLayout()
        where.setContentsMargins(0, 0, 0, 0)
        where.addWidget(self.languages, 1)
        where.addWidget(self.browse)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.addRow("Training rule", self.rule)
        self.form.addRow("IoS threshold τ", self.ios)
        self.form.addRow("Transition t (merges)", self.transition)
        self.form.addRow("Languages", where)
        self.form.addRow("Parity mode", self.parity_mode)
        self.rule.currentIndexChanged.connect(self._show_rows)
        self._show_rows()

    def variant(self) -> str:
        return self.rule.currentData()

    def show_config(self, config: TrainerConfig, languages: str = "") -> None:
        """Fill the fields from ``config`` (and the languages' source of a parity run)."""
        self.rule.setCurrentIndex(max(0, self.rule.findData(config.variant)))
        self.ios.setValue(config.ios_threshold)
        self.transition.setValue(config.transition if config.transition is not None else DEFAULT_TRANSITION)
        self.parity_mode.setCurrentText(config.parity_mode)
        self.languages.setText(languages)
        self._show_rows()

    def overrides(self) -> Dict[str, Any]:
        """The config fields the rule sets (for ``make_config``)."""
        variant = self.variant()
        return {"variant": variant, "ios_threshold": round(self.ios.value(), 4),
                "transition": self.transition.value() if variant == "superbpe" else None,
                "parity_mode": self.parity_mode.currentText()}

    def languages_source(self) -> str:
        """The parity run's languages (a folder or a table); "" for the other rules."""
        return self.languages.text().strip() if self.variant() == "parity" else ""

    def problem(self) -> Optional[str]:
        """A one-line message when the fields cannot make a run (the core checks the rest)."""
        if self.variant() != "parity":
            return None
        try:
            check_languages(self.languages_source())  # the dialog stays open on a source that cannot make a run
        except BPELensError as exc:
            return str(exc)
        return None

    def _show_rows(self, *_args) -> None:
        variant = self.variant()
        for row, shown in ((1, variant == "picky"), (2, variant == "superbpe"), (3, variant == "parity"),
                           (4, variant == "parity")):
            self.form.setRowVisible(row, shown)

    def _on_browse_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Languages: a folder of one .txt file per language",
                                                  self.languages.text())
        if folder:
            self.languages.setText(folder)
