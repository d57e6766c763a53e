"""The training settings around parity-aware BPE (issue 26's user test): a languages source that cannot make
a run keeps the dialog open with the choices; leaving a parity run (another rule, another corpus) gives a run
of that rule on a text corpus, and the settings then show that rule."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from bpe_lens_app.features.training.settings_dialog import SettingsDialog

PARALLEL = Path(__file__).resolve().parent.parent / "data" / "parallel"


def _langs(tmp_path) -> Path:
    langs = tmp_path / "langs"
    langs.mkdir()
    for lang in ("eng", "rus"):
        text = (PARALLEL / f"{lang}.txt").read_text(encoding="utf-8")
        (langs / f"{lang}.txt").write_text(text[:2000], encoding="utf-8")  # no dev/: measured on this text
    return langs


def _choose(window, qtbot, monkeypatch, rule: str, languages: str = "") -> None:
    def fill(dialog: SettingsDialog) -> int:
        f = dialog.rule_fields
        f.rule.setCurrentIndex(f.rule.findText(rule))
        if languages:
            f.languages.setText(languages)
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", fill)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.settings_action.trigger()


def _dialog_after_ok(qtbot, languages: str) -> SettingsDialog:
    dialog = SettingsDialog(__import__("bpe_core").make_config("gpt2"))
    qtbot.addWidget(dialog)
    f = dialog.rule_fields
    f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
    f.languages.setText(languages)
    dialog.accept()
    return dialog


def test_a_folder_without_language_files_keeps_the_dialog_open(qtbot, tmp_path):
    (tmp_path / "README.md").write_text("# notes\n", encoding="utf-8")
    dialog = _dialog_after_ok(qtbot, str(tmp_path))
    assert dialog.result() == 0 and ".txt" in dialog.error.text()
    assert dialog.rule_fields.rule.currentText() == "Parity-aware BPE"
    assert dialog.rule_fields.languages.text() == str(tmp_path)


def test_a_plain_text_file_as_languages_keeps_the_dialog_open(qtbot, tmp_path):
    text = tmp_path / "default.txt"
    text.write_text("the cat sat\n", encoding="utf-8")
    dialog = _dialog_after_ok(qtbot, str(text))
    assert dialog.result() == 0 and "language" in dialog.error.text()
    assert dialog.rule_fields.languages.text() == str(text)


def test_the_shipped_parallel_folder_is_accepted(qtbot):
    dialog = _dialog_after_ok(qtbot, str(PARALLEL))
    assert dialog.error.text() == "" and dialog.result() == 1


def test_another_rule_after_a_parity_run_trains_the_text_corpus(user_window, small_corpus, qtbot, monkeypatch,
                                                                tmp_path):
    window = user_window(str(small_corpus))
    _choose(window, qtbot, monkeypatch, "Parity-aware BPE", str(_langs(tmp_path)))
    assert window.session.config.variant == "parity"
    errors = []
    window.session.error_raised.connect(errors.append)
    _choose(window, qtbot, monkeypatch, "PickyBPE")
    assert errors == []
    assert window.session.config.variant == "picky"
    assert Path(window.session.corpus.path) == Path(small_corpus)


def test_a_corpus_opened_after_a_parity_run_is_a_plain_run(user_window, small_corpus, qtbot, monkeypatch,
                                                           tmp_path):
    window = user_window(str(small_corpus))
    _choose(window, qtbot, monkeypatch, "Parity-aware BPE", str(_langs(tmp_path)))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.load_corpus(str(small_corpus))
    assert window.session.config.variant == "bpe"
    seen = []

    def look(dialog: SettingsDialog) -> int:
        seen.append((dialog.rule_fields.rule.currentText(), dialog.rule_fields.languages.text()))
        return 0

    monkeypatch.setattr(SettingsDialog, "exec", look)
    window.settings_action.trigger()
    assert seen == [("Plain BPE", "")]


def test_the_split_preview_is_whole_when_a_rule_adds_rows(qtbot):
    """PickyBPE's τ and parity's two rows must not squeeze the Split preview (the user test saw it cut)."""
    dialog = SettingsDialog(__import__("bpe_core").make_config("gpt2"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    f = dialog.rule_fields
    for rule in ("PickyBPE", "Parity-aware BPE", "SuperBPE", "Plain BPE", "Parity-aware BPE"):
        f.rule.setCurrentIndex(f.rule.findText(rule))
        qtbot.wait(50)
        preview = dialog.preview
        assert preview.height() >= preview.heightForWidth(preview.width()), rule
        assert dialog.rect().contains(preview.geometry().translated(preview.parentWidget().mapTo(dialog, 
                                                                                                  preview.pos()) - preview.pos()))
