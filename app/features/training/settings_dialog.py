"""Training settings: a preset and every field its config uses, each one a user may override.

Choosing a preset fills every field with its defaults; :meth:`SettingsDialog.config` builds the
:class:`TrainerConfig` through ``make_config(preset, **overrides)`` so a bad combination is refused
with the core's own message, shown in the dialog (the dialog stays open, nothing is lost).

The two stops combine as seed 002's ``vocab_size`` and ``max_iter`` do: the first stop is a vocab size
or a number of merges, and "also stop" adds the other kind; training ends at whichever comes first.
The training rule (plain BPE, PickyBPE, SuperBPE, parity-aware BPE) and its settings are
:class:`~.rule_fields.RuleFields`. The pattern field (the "regex" pre-tokenizer) is checked as it is typed, and a sample line shows how the
chosen pre-tokenizer splits it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import List, Optional, Tuple

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from bpe_core import PRESETS, BPELensError, TrainerConfig, make_config
from bpe_core.base import check_config, visible_whitespace
from bpe_core.pipelines import Pipeline
from bpe_core.pretokenize import PRETOKENIZERS, compile_user_pattern, get_pretokenizer, pattern_warnings
from bpe_core.types import TIE_BREAKS
from bpe_core.workbench import stage_one

from ...widgets.theme import error_text_color, readable_on
from .rule_fields import RuleFields

VOCAB_SIZE, MERGES = "vocab size", "merges"
#: the preview's default line: ASCII words, a contraction, digits, punctuation, accents, Han, kana
SAMPLE_LINE = "Hello world! It's 2024: naïve café, 自然语言处理 and カタカナ."
PREVIEW_SEPARATOR = " │ "
#: the corpus's bytes that are not UTF-8 (a Latin-1 file): the CLI's ``--errors strict|replace``
DECODE_CHOICES = {
    "strict": ("stop with an error (strict)", "A byte that is not UTF-8 stops the count and names its place"),
    "replace": ("read them as � (replace)", "Bytes that are not UTF-8 are read as U+FFFD �, as --errors replace"),
}


def preset_description(name: str) -> str:
    preset = PRESETS[name]
    return getattr(preset, "description", preset if isinstance(preset, str) else "")


def pretokenizer_choices() -> List[Tuple[str, str]]:
    """(name, description) of every pre-tokenizer the core offers."""
    return [(name, p.description) for name, p in PRETOKENIZERS.items()]


def split_preview(config: TrainerConfig, line: str) -> str:
    """How the config's pre-tokenizer cuts ``line``: words joined by " │ ", whitespace made visible.

    Raises :class:`BPELensError` for a pattern the core refuses.
    """
    words = Pipeline(config).words(line)  # the chain the counter uses: normalizer, then pre-tokenizer
    return PREVIEW_SEPARATOR.join(visible_whitespace(w) for w in words) or "(no words)"


class SettingsDialog(QDialog):
    def __init__(self, config: TrainerConfig, parent: Optional[QWidget] = None, *,
                 decode_errors: str = "strict", languages: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Training settings")
        self._base = config
        self._make_fields()
        self.decode.setCurrentIndex(max(0, self.decode.findData(decode_errors)))
        self.rule_fields.languages.setText(languages)
        layout = QVBoxLayout(self)
        layout.addWidget(self.rule_fields)
        layout.addLayout(self._form())
        layout.addWidget(self.error)
        layout.addWidget(QLabel("Changing the settings counts the corpus again and restarts at merge 0.", self))
        layout.addWidget(self._buttons())
        self.show_config(config)
        self.preset.currentIndexChanged.connect(self._on_preset_changed)
        for signal in (self.pattern.textChanged, self.sample.textChanged, self.pretokenizer.currentIndexChanged,
                       self.lowercase.toggled, self.lowercase_words.toggled):
            signal.connect(self._update_preview)
        self.target_kind.currentTextChanged.connect(self._update_second_stop)
        self.second_stop.toggled.connect(self.second_target.setEnabled)
        self.rule_fields.rule.currentIndexChanged.connect(self._fit)

    # -- building ----------------------------------------------------------------------------
    def _make_fields(self) -> None:
        self.rule_fields = RuleFields(self)
        self.preset = _combo(self, [(name, name, preset_description(name)) for name in PRESETS])
        self.preset_info = QLabel(self, wordWrap=True)
        self.pretokenizer = _combo(self, [(name, name, d) for name, d in pretokenizer_choices()])
        self.pattern = QLineEdit(self, placeholderText=r"your regex, e.g. \w+|[^\w\s]+ (every match is a word)")
        self.pattern_status = QLabel(self, objectName="pattern_status", wordWrap=True)
        self.sample = QLineEdit(SAMPLE_LINE, self)
        self.preview = QLabel(self, objectName="split_preview", wordWrap=True)
        self.preview.setToolTip("How the pre-tokenizer cuts the sample line into words (· is a space)")
        self.unit = QComboBox(self)
        self.unit.addItems(["chars", "bytes"])
        self.suffix = QLineEdit(self, placeholderText="none (e.g. </w>)")
        self.lowercase = QCheckBox("lowercase the text before pre-tokenizing", self)
        self.lowercase_words = QCheckBox("lowercase each word after pre-tokenizing (the HF course's literal order: "
                                         "Ġ becomes ġ)", self)
        self.specials = QLineEdit(self, placeholderText="none (e.g. <|endoftext|>)")
        self.specials.setToolTip("Special tokens, separated by spaces; they get ids before the alphabet")
        self.target_kind = QComboBox(self)
        self.target_kind.addItems([VOCAB_SIZE, MERGES])
        self.target = _count_box(self, 1)
        self.second_stop = QCheckBox(self)
        self.second_target = _count_box(self, 1)
        self.min_frequency = _count_box(self, 0)
        self.min_frequency.setToolTip("Stop when the best pair occurs fewer times than this (0: never)")
        self.min_word_count = _count_box(self, 1)
        self.min_word_count.setToolTip("Ignore words seen fewer times than this (seed 000's mincount; 1: keep all)")
        self.tie_break = QComboBox(self)
        self.tie_break.addItems(list(TIE_BREAKS))
        self.tie_break.setToolTip("Which pair wins when counts are equal: first seen in the corpus (the seeds), "
                                  "Hugging Face's smallest ids, or alphabetical")
        self.decode = _combo(self, [(text, name, tip) for name, (text, tip) in DECODE_CHOICES.items()])
        self.decode.setObjectName("decode_errors")
        self.error = QLabel(self, objectName="settings_error", wordWrap=True)
        self.error.setStyleSheet(f"color: {error_text_color(self.palette()).name()}")

    def _form(self) -> QFormLayout:
        first, second = QHBoxLayout(), QHBoxLayout()
        first.addWidget(self.target_kind)
        first.addWidget(self.target, 1)
        second.addWidget(self.second_stop)
        second.addWidget(self.second_target, 1)
        form = QFormLayout()
        for label, field in [("Preset", self.preset), ("", self.preset_info), ("Pre-tokenizer", self.pretokenizer),
                             ("Pattern", self.pattern), ("", self.pattern_status), ("Sample line", self.sample),
                             ("Split", self.preview), ("Units", self.unit), ("End-of-word suffix", self.suffix),
                             ("", self.lowercase), ("", self.lowercase_words), ("Special tokens", self.specials),
                             ("Stop at", first), ("", second), ("Min frequency", self.min_frequency),
                             ("Min word count", self.min_word_count), ("Tie rule", self.tie_break),
                             ("Decode errors", self.decode)]:
            form.addRow(label, field)
        return form

    def _buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel | QDialogButtonBox.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.RestoreDefaults).setText("Preset defaults")
        buttons.button(QDialogButtonBox.RestoreDefaults).clicked.connect(
            lambda: self.show_config(make_config(self.preset.currentData())))
        return buttons

    # -- fields <-> config -------------------------------------------------------------------
    def show_config(self, config: TrainerConfig) -> None:
        """Fill the fields from ``config``."""
        self.preset.blockSignals(True)
        self.preset.setCurrentIndex(max(self.preset.findData(config.preset), 0))
        self.preset.blockSignals(False)
        self.preset_info.setText(preset_description(self.preset.currentData()))
        if self.pretokenizer.findData(config.pretokenizer) < 0:
            self.pretokenizer.addItem(config.pretokenizer, config.pretokenizer)
        self.pretokenizer.setCurrentIndex(self.pretokenizer.findData(config.pretokenizer))
        self.pattern.setText(config.pattern or "")
        self.unit.setCurrentText(config.unit)
        self.suffix.setText(config.end_of_word_suffix)
        self.lowercase.setChecked(config.lowercase)
        self.lowercase_words.setChecked(config.lowercase_words)
        self.specials.setText(" ".join(config.special_tokens))
        self._show_stops(config)
        self.min_frequency.setValue(config.min_frequency)
        self.min_word_count.setValue(max(1, config.min_word_count))
        if self.tie_break.findText(config.tie_break) < 0:  # table-order (PickyBPE's): listed when a config uses it
            self.tie_break.addItem(config.tie_break)
        self.tie_break.setCurrentText(config.tie_break)
        self.rule_fields.show_config(config, self.rule_fields.languages.text())
        self.error.clear()
        self._update_preview()

    def _show_stops(self, config: TrainerConfig) -> None:
        merges_first = config.num_merges is not None and config.vocab_size is None
        self.target_kind.setCurrentText(MERGES if merges_first else VOCAB_SIZE)
        self.target.setValue(config.num_merges if merges_first else (config.vocab_size or 1000))
        both = config.num_merges is not None and config.vocab_size is not None
        self.second_stop.setChecked(both)
        self.second_target.setValue(config.num_merges if both else 1000)
        self._update_second_stop()

    def _on_preset_changed(self, _index: int) -> None:
        """The preset's defaults in every field; the training rule chosen stays."""
        self.show_config(replace(make_config(self.preset.currentData()), **self.rule_fields.overrides()))

    def _stops(self) -> Tuple[Optional[int], Optional[int]]:
        """(vocab_size, num_merges) from the two stop rows."""
        first, second = self.target.value(), self.second_target.value() if self.second_stop.isChecked() else None
        if self.target_kind.currentText() == MERGES:
            return second, first
        return first, second

    def config(self) -> TrainerConfig:
        """The settings as a config; raises :class:`BPELensError` for a bad combination."""
        vocab_size, num_merges = self._stops()
        config = make_config(
            self.preset.currentData(), pretokenizer=self.pretokenizer.currentData(), unit=self.unit.currentText(),
            pattern=self.pattern.text() or None, end_of_word_suffix=self.suffix.text(),
            lowercase=self.lowercase.isChecked(), lowercase_words=self.lowercase_words.isChecked(),
            special_tokens=tuple(self.specials.text().split()), num_merges=num_merges, vocab_size=vocab_size,
            min_frequency=self.min_frequency.value(), min_word_count=self.min_word_count.value(),
            tie_break=self.tie_break.currentText(), **self.rule_fields.overrides())
        check_config(config)
        get_pretokenizer(config)  # a bad pattern is refused here, with the core's message
        if config.variant == "superbpe":
            stage_one(config)  # a preset SuperBPE cannot continue: the core's one line
        return config

    def languages(self) -> str:
        """A parity-aware run's languages: a folder of one file per language, or a word-count table ("" else)."""
        return self.rule_fields.languages_source()

    def decode_errors(self) -> str:
        """How the corpus's bytes that are not UTF-8 are read: "strict" or "replace" (the CLI's ``--errors``)."""
        return self.decode.currentData()

    # -- live feedback -----------------------------------------------------------------------
    def _update_second_stop(self, *_args) -> None:
        other = "merges" if self.target_kind.currentText() == VOCAB_SIZE else "vocab size"
        self.second_stop.setText(f"also stop at {other} (whichever comes first)")
        self.second_target.setEnabled(self.second_stop.isChecked())

    def _update_preview(self, *_args) -> None:
        """Check the pattern and split the sample line with the pre-tokenizer as it is set now."""
        self._check_pattern()
        cfg = TrainerConfig(pretokenizer=self.pretokenizer.currentData(), pattern=self.pattern.text() or None,
                            lowercase=self.lowercase.isChecked(), lowercase_words=self.lowercase_words.isChecked())
        try:
            self.preview.setText(split_preview(cfg, self.sample.text()))
            self.preview.setStyleSheet("")
        except BPELensError as exc:
            self.preview.setText(str(exc))
            self.preview.setStyleSheet(self._error_style())
        self._fit()

    def _fit(self, *_args) -> None:
        """Grow the dialog to the height its rows need at its width (a rule's rows, a longer split preview):
        the word-wrapped preview is never cut."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        need = layout.totalHeightForWidth(self.width())
        if need > self.height():
            self.resize(self.width(), need)
            layout.activate()

    def _error_style(self) -> str:
        return f"color: {error_text_color(self.palette()).name()}"

    def _ok_style(self) -> str:
        """A green readable on this palette's window (a dark theme needs a lighter one)."""
        ok = readable_on(QColor("#2b8a3e"), self.palette().color(QPalette.Window), 4.5)
        return f"color: {ok.name()}"

    def _check_pattern(self) -> None:
        text, used = self.pattern.text(), self.pretokenizer.currentData() == "regex"
        note = "" if used else " (used by the 'regex' pre-tokenizer)"
        if not text:
            self.pattern_status.setText("no pattern" + note)
            self.pattern_status.setStyleSheet(self._error_style() if used else "")
            return
        try:
            compile_user_pattern(text)
        except BPELensError as exc:
            self.pattern_status.setText(str(exc))
            self.pattern_status.setStyleSheet(self._error_style())
            return
        warned = pattern_warnings(text)  # nested quantifiers: the core's words, as the CLI's warning line
        self.pattern_status.setText(("pattern OK, but " + warned[0] if warned else "pattern OK") + note)
        self.pattern_status.setStyleSheet(self._error_style() if warned else self._ok_style())

    def accept(self) -> None:
        try:
            self.config()
        except (BPELensError, ValueError, TypeError) as exc:
            self.error.setText(str(exc))
            return
        problem = self.rule_fields.problem()
        if problem:
            self.error.setText(problem)
            return
        super().accept()


def _combo(parent: QWidget, items: List[Tuple[str, str, str]]) -> QComboBox:
    """A combo box of (text, data, tooltip) items."""
    box = QComboBox(parent)
    for text, data, tip in items:
        box.addItem(text, data)
        box.setItemData(box.count() - 1, tip, 3)  # ToolTipRole
    return box


def _count_box(parent: QWidget, minimum: int) -> QSpinBox:
    box = QSpinBox(parent, minimum=minimum, maximum=1_000_000)
    box.setGroupSeparatorShown(True)
    return box

