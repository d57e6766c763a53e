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
from typing import Optional, Sequence

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from bpe_core import BPELensError, RunCorpus, Timeline, TrainerConfig, TrainingRun
from bpe_core.corpus import language_files
from bpe_core.workbench import parity_factory

from ..training import RuleFields

__all__ = ["AddRuleDialog", "rule_run"]

SUPERBPE_NOTE = ("SuperBPE continues a run from one of its merges: use \"Continue as SuperBPE from here\" on a plain "
                 "BPE run")


PARITY_NEEDS = ("Parity-aware BPE needs a folder of one text file per language (this corpus is not one): "
                "give it under Languages")


def languages_folder(paths: Sequence[str]) -> str:
    """The folder of one text file per language that a corpus is ("" when it is not one): the folder itself,
    or files that are all of one folder's language files (the parallel example opens its 8 files)."""
    paths = [os.path.abspath(p) for p in paths]
    if len(paths) == 1 and os.path.isdir(paths[0]):
        folder = paths[0]
    elif len(paths) >= 2 and len({os.path.dirname(p) for p in paths}) == 1:
        folder = os.path.dirname(paths[0])
    else:
        return ""
    try:
        _names, train, _dev = language_files(folder)
    except (BPELensError, OSError):
        return ""
    files = {os.path.abspath(str(p)) for p in train.values()}
    return folder if len(files) >= 2 and (os.path.isdir(paths[0]) or files == set(paths)) else ""


def _window_corpus(parent) -> Sequence[str]:
    """The files of the run of the window that opens the dialog (none without one)."""
    run = getattr(getattr(getattr(parent, "session", None), "workbench", None), "run", None)
    return tuple(run.corpus.paths) if run is not None else ()


class AddRuleDialog(QDialog):
    """The rule of the run to add; OK stays refused (the dialog open, a line saying why) while the fields
    cannot make a run. ``corpus``: the window's run's files (by default its parent window's run's): when they
    are a folder of one file per language, parity-aware BPE's Languages starts there."""

    def __init__(self, config: TrainerConfig, parent: Optional[QWidget] = None,
                 corpus: Optional[Sequence[str]] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a run with another rule")
        self.base = config
        self.folder = languages_folder(_window_corpus(parent) if corpus is None else corpus)
        self.rule_fields = RuleFields(self)
        other = "picky" if config.variant != "picky" else "bpe"
        self.rule_fields.show_config(replace(config, variant=other), self.folder)
        self.problem_label = QLabel("", objectName="add_rule_problem", wordWrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        where = ("A new run on the same corpus, beside this one" + (
            f" (parity-aware BPE: on its languages, the folder ‘{os.path.basename(self.folder)}’)"
            if self.folder else ""))
        self.needs_label = QLabel(PARITY_NEEDS, objectName="add_rule_parity_needs", wordWrap=True)
        self.rule_fields.rule.currentIndexChanged.connect(self._show_needs)
        self._show_needs()
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(where, objectName="add_rule_where", wordWrap=True))
        lay.addWidget(self.rule_fields)
        lay.addWidget(self.needs_label)
        lay.addWidget(self.problem_label)
        lay.addWidget(buttons)

    def config(self) -> TrainerConfig:
        """The window's run's settings with the rule chosen here."""
        return replace(self.base, **self.rule_fields.overrides())

    def languages(self) -> str:
        return self.rule_fields.languages_source()

    def _show_needs(self, *_) -> None:
        """What parity-aware BPE needs, said while it is picked on a corpus that is not a languages folder."""
        self.needs_label.setVisible(self.rule_fields.variant() == "parity" and not self.folder)

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
