"""The settings dialog reaches every setting the presets use (issue 10), driven with pytest-qt."""
from __future__ import annotations

from bpe_core.presets import PRESETS, make_config
from bpe_lens_app.features.training.settings_dialog import MERGES, PREVIEW_SEPARATOR, VOCAB_SIZE, SettingsDialog


def dialog_for(qtbot, preset: str) -> SettingsDialog:
    dialog = SettingsDialog(make_config(preset))
    qtbot.addWidget(dialog)
    return dialog


def test_every_preset_round_trips_through_the_dialog(qtbot):
    """Opening a preset and pressing OK gives back exactly the preset's config: no field is missing."""
    for name in PRESETS:
        assert dialog_for(qtbot, name).config() == make_config(name), name


def test_seed000_min_word_count(qtbot):
    dialog = dialog_for(qtbot, "nltk-wordpunct")
    assert dialog.min_word_count.value() == 1
    dialog.min_word_count.setValue(2)
    assert dialog.config().min_word_count == 2


def test_both_stops_together_as_seed_002(qtbot):
    dialog = dialog_for(qtbot, "char-whitespace")
    assert dialog.target_kind.currentText() == VOCAB_SIZE and not dialog.second_stop.isChecked()
    assert "merges" in dialog.second_stop.text() and not dialog.second_target.isEnabled()
    dialog.target.setValue(17)
    dialog.second_stop.setChecked(True)
    assert dialog.second_target.isEnabled()
    dialog.second_target.setValue(3)
    cfg = dialog.config()
    assert (cfg.vocab_size, cfg.num_merges) == (17, 3)
    dialog.target_kind.setCurrentText(MERGES)  # the first stop is merges now, the second a vocab size
    assert "vocab size" in dialog.second_stop.text()
    cfg = dialog.config()
    assert (cfg.vocab_size, cfg.num_merges) == (3, 17)
    dialog.second_stop.setChecked(False)
    cfg = dialog.config()
    assert (cfg.vocab_size, cfg.num_merges) == (None, 17)


def test_a_config_with_both_stops_is_shown_with_both(qtbot):
    dialog = SettingsDialog(make_config("char-whitespace", vocab_size=17, num_merges=3))
    qtbot.addWidget(dialog)
    assert dialog.target_kind.currentText() == VOCAB_SIZE and dialog.target.value() == 17
    assert dialog.second_stop.isChecked() and dialog.second_target.value() == 3


def test_regex_pattern_live_check_and_preview(qtbot):
    dialog = dialog_for(qtbot, "char-hf")
    dialog.pretokenizer.setCurrentIndex(dialog.pretokenizer.findData("regex"))
    assert "no pattern" in dialog.pattern_status.text()
    assert "needs a pattern" in dialog.preview.text()
    dialog.pattern.setText("[a-z")  # typed half way: refused as it is typed
    assert "invalid pre-tokenizer pattern" in dialog.pattern_status.text()
    dialog.pattern.setText(r"\w+|[^\w\s]")
    assert dialog.pattern_status.text() == "pattern OK"
    dialog.sample.setText("It's 2024!")
    assert dialog.preview.text() == PREVIEW_SEPARATOR.join(["It", "'", "s", "2024", "!"])
    cfg = dialog.config()
    assert cfg.pretokenizer == "regex" and cfg.pattern == r"\w+|[^\w\s]"


def test_a_bad_pattern_is_refused_on_ok(qtbot):
    dialog = dialog_for(qtbot, "char-hf")
    dialog.show()
    dialog.pretokenizer.setCurrentIndex(dialog.pretokenizer.findData("regex"))
    dialog.pattern.setText("(")
    dialog.accept()
    assert "invalid pre-tokenizer pattern" in dialog.error.text() and dialog.isVisible()


def test_preview_follows_the_pretokenizer(qtbot):
    dialog = dialog_for(qtbot, "gpt2")
    dialog.sample.setText("Hello world")
    assert dialog.preview.text() == PREVIEW_SEPARATOR.join(["Hello", "·world"])
    dialog.pretokenizer.setCurrentIndex(dialog.pretokenizer.findData("cjk"))
    dialog.sample.setText("我爱Python编程！")
    assert dialog.preview.text() == PREVIEW_SEPARATOR.join(["我爱", "Python", "编程", "！"])


def test_suffix_unit_lowercase_and_specials(qtbot):
    dialog = dialog_for(qtbot, "hf-course")
    assert dialog.specials.text() == "<|endoftext|>" and dialog.lowercase.isChecked()
    assert dialog.unit.currentText() == "bytes" and not dialog.lowercase_words.isChecked()
    dialog.specials.setText("<s> </s>")
    dialog.lowercase.setChecked(False)
    cfg = dialog.config()
    assert cfg.special_tokens == ("<s>", "</s>") and not cfg.lowercase
    dialog = dialog_for(qtbot, "char-whitespace")
    dialog.suffix.setText("@@")
    dialog.specials.setText("")
    assert dialog.config().end_of_word_suffix == "@@" and dialog.config().special_tokens == ()


def test_course_literal_order_is_an_option(qtbot):
    dialog = dialog_for(qtbot, "hf-course-literal")
    assert dialog.lowercase_words.isChecked() and not dialog.lowercase.isChecked()
    dialog.sample.setText("The end")
    assert dialog.preview.text() == PREVIEW_SEPARATOR.join(["the", "ġend"])  # Ġ lowercased: ġ
    dialog.preset.setCurrentIndex(dialog.preset.findData("hf-course"))
    assert not dialog.lowercase_words.isChecked() and dialog.lowercase.isChecked()


def _cli_errors_choices():
    """The choices of ``bpe-lens-cli train --errors``, read from the CLI's parser."""
    from bpe_core.cli.commands import build_parser

    train = next(a for a in build_parser()._subparsers._group_actions[0].choices["train"]._actions
                 if "--errors" in a.option_strings)
    return list(train.choices)


def test_decode_errors_choice_as_the_clis_errors_option(qtbot):
    """Issue 23, finding 8: the CLI's --errors strict|replace, in the dialog (a Latin-1 corpus reads with �)."""
    dialog = SettingsDialog(make_config("gpt2"))
    qtbot.addWidget(dialog)
    assert dialog.decode_errors() == "strict"
    assert [dialog.decode.itemData(i) for i in range(dialog.decode.count())] == _cli_errors_choices()
    dialog.decode.setCurrentIndex(dialog.decode.findData("replace"))
    assert dialog.decode_errors() == "replace" and dialog.config() == make_config("gpt2")
    again = SettingsDialog(make_config("gpt2"), decode_errors="replace")
    qtbot.addWidget(again)
    assert again.decode_errors() == "replace"
