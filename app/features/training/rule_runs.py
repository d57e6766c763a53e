"""Starting a run of the training rule the settings chose (issue 26).

Plain BPE and PickyBPE: the session loads the corpus again with the new settings. SuperBPE: the session trains
stage 1 (plain BPE, the run's stop rules); when the run first reaches the transition point t it stops there
(a run that went past it goes back to t) and Training → "Continue as SuperBPE from here" makes stage 2 as the
run's branch (the variants feature). Parity-aware BPE: the session loads the languages (a folder of one file per
language, or a word-count table) with a factory that makes the parity run's trainer. Another rule chosen on a
parity run trains the text corpus the window had before it (the default corpus if none).
"""
from __future__ import annotations

from PySide6.QtCore import QObject

from bpe_core import BPELensError, TrainerConfig
from bpe_core.resources import default_corpus
from bpe_core.workbench import parity_factory, stage_one


__all__ = ["start_rule_run", "run_languages", "rule_config"]


def rule_config(window) -> TrainerConfig:
    """The settings the run was started with: a SuperBPE run's own (its session trains stage 1, plain BPE)."""
    config = window.session.config
    chosen = getattr(window, "superbpe_settings", None)
    if chosen is not None and stage_one(chosen) == config:
        return chosen
    return config


def run_languages(session) -> str:
    """The languages' source of the session's parity-aware run ("" for other rules): the settings show it."""
    corpus = session.corpus
    return corpus.path if corpus is not None and session.config.variant == "parity" else ""


def start_rule_run(window, config: TrainerConfig, languages: str = "") -> None:
    """Restart ``window``'s session with ``config``'s training rule (``languages``: a parity run's source)."""
    session = window.session
    try:
        if config.variant == "parity":
            if session.config.variant != "parity" and session.corpus is not None:
                window.text_corpus = session.corpus.paths or session.corpus.path  # where another rule returns
            session.load_corpus(languages, config, factory=parity_factory(languages))
            return
        first = stage_one(config) if config.variant == "superbpe" else config
        if config.variant == "superbpe":
            window.superbpe_settings = config
            TransitionWatch(window, first, config.transition)
        if session.config.variant == "parity":  # a parity run's folder is no text corpus: the one before it
            session.load_corpus(getattr(window, "text_corpus", None) or str(default_corpus()), first)
        else:
            session.set_config(first)
    except BPELensError as exc:
        session.error_raised.emit(str(exc))


class TransitionWatch(QObject):
    """Stops a SuperBPE run's stage 1 at its transition point ``t`` and continues it as SuperBPE there, once;
    it lets go when other settings are loaded."""

    def __init__(self, window, config: TrainerConfig, t: int) -> None:
        super().__init__(window)
        self.window, self.config, self.t = window, config, t
        for old in window.findChildren(TransitionWatch):  # one watch a window: the last settings given
            if old is not self:
                old._done()
        s = window.session
        self._signals = (s.steps_applied, s.steps_undone, s.run_finished, s.corpus_loaded)
        for signal in self._signals:
            signal.connect(self._check)

    def _check(self, *_args) -> None:
        s = self.window.session
        if not s.is_loaded or s.is_loading:
            return
        if s.config != self.config:
            self._done()  # other settings were loaded
            return
        k = s.merge_count
        if k < self.t:
            return
        if s.is_running:
            s.pause()  # run_finished comes back here
            return
        if k > self.t:
            s.seek(self.t)
            return
        self._done()
        # the variants feature, reached through the window: it imports this feature's rule fields (no cycle)
        feature = getattr(self.window, "variants_feature", None)
        if feature is not None:
            feature.continue_superbpe()

    def _done(self) -> None:
        if self.parent() is None:
            return  # already let go
        for signal in self._signals:
            signal.disconnect(self._check)
        self.setParent(None)
        self.deleteLater()
