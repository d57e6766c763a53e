"""Variants tab → "Add a run with another rule…": the training settings' rule choice (the training feature's
:class:`RuleFields`) in a small dialog, and the run it makes: plain BPE or PickyBPE on the window's corpus, or
parity-aware BPE on a languages folder, opened on the Workbench as another run (not replacing the window's run),
listed, stepped and compared in the tab. Beside a parity-aware run, plain BPE or PickyBPE trains on its language
files, so the tab compares them per language. SuperBPE is not offered as its own run: it continues a run at a
merge (Continue as SuperBPE from here), so the dialog says so and stays open.
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Optional

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from bpe_core import RunCorpus, Timeline, TrainerConfig, TrainingRun
from bpe_core.corpus import language_files
from bpe_core.workbench import parity_factory

from ..training import RuleFields

__all__ = ["AddRuleDialog", "rule_run"]

SUPERBPE_NOTE = ("SuperBPE continues a run from one of its merges: use \"Continue as SuperBPE from here\" on a plain "
                 "BPE run")


class AddRuleDialog(QDialog):
    """The rule of the run to add; OK stays refused (the dialog open, a line saying why) while the fields
    cannot make a run."""

    def __init__(self, config: TrainerConfig, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a run with another rule")
        self.base = config
        self.rule_fields = RuleFields(self)
        other = "picky" if config.variant != "picky" else "bpe"
        self.rule_fields.show_config(replace(config, variant=other))
        self.problem_label = QLabel("", objectName="add_rule_problem", wordWrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("A new run on the same corpus (parity-aware BPE: on its languages), beside this one"))
        lay.addWidget(self.rule_fields)
        lay.addWidget(self.problem_label)
        lay.addWidget(buttons)

    def config(self) -> TrainerConfig:
        """The window's run's settings with the rule chosen here."""
        return replace(self.base, **self.rule_fields.overrides())

    def languages(self) -> str:
        return self.rule_fields.languages_source()

    def accept(self) -> None:
        problem = SUPERBPE_NOTE if self.rule_fields.variant() == "superbpe" else self.rule_fields.problem()
        self.problem_label.setText(problem or "")
        if problem is None:
            super().accept()


def rule_run(run_id: str, corpus: RunCorpus, config: TrainerConfig, languages: str = "", *, progress=None,
             cancel=None) -> TrainingRun:
    """A new run at merge 0 with ``config``'s rule: on ``corpus``, or on ``languages`` for parity-aware BPE
    (slow: the corpus is counted; a worker's job)."""
    if config.variant == "parity":
        trainer = parity_factory(languages)(None, config, progress=progress, cancel=cancel)
        return TrainingRun(run_id, RunCorpus((os.path.abspath(languages),)), Timeline(trainer))
    if len(corpus.paths) == 1 and os.path.isdir(corpus.paths[0]):  # beside a parity run: its language files
        _names, train, _dev = language_files(corpus.paths[0])
        corpus = RunCorpus(tuple(str(train[n]) for n in sorted(train)))
    return TrainingRun.open(run_id, corpus, config, progress=progress, cancel=cancel)
