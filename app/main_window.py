"""The main window: layout and actions only. State lives in the session, drawing in the panes."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, List, Optional

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QFileDialog, QLabel, QMainWindow, QMessageBox, QSplitter, QTabWidget,
                               QVBoxLayout, QWidget)

from bpe_core import TrainerConfig, resources
from bpe_core.corpus import config_for_table
from bpe_core.workbench import text_rule

from .features import exports as export
from .features import install_features
from .features.examples import open_example, own_config
from .features.inspector import InspectorTab
from .features.presenter import PresenterWindow
from .features.training import (ControlsPane, HistoryChart, MergesTable, PairChart, PresetBox, RunStatus,
                                SettingsDialog, TrainActions, WordsPane, bind, rule_config, run_languages,
                                start_rule_run)
from .discard_questions import confirm_reset, discard_box, is_saved, opening_action, other_runs_lost, trained_merges
from .file_kinds import is_vocabulary
from .keys import key_lines
from .layout_state import restore_layout, save_layout
from .panes.encode_pane import EncodePane
from .recent_menus import fill_examples, fill_menu
from .runtime import settings_store
from .session.corpus_files import REPLACE_BUTTON, corpus_paths, is_decode_error, save_decode_errors, saved_decode_errors
from .session.session import Session, user_message
from .widgets.theme import change_app_font_size, set_app_font_size

RESOURCES = resources.root()
RECENT_CORPORA, RECENT_VOCABULARIES = "recent", "recent_vocabularies"


class MainWindow(QMainWindow):
    inspector_made = Signal(object, object)  # InspectorTab, the OpenVocabulary it shows (features wire it)
    tab_closed = Signal(object)  # the widget of a tab just closed

    def __init__(self, session: Session, settings: Optional[QSettings] = None) -> None:
        super().__init__()
        self.session = session
        self.settings = settings or QSettings()
        self.setWindowTitle("BPE Lens")
        self.setAcceptDrops(True)
        self.train_actions = TrainActions(self)
        bind(self.train_actions, session)
        self.controls = ControlsPane(session, self.train_actions)
        self.pair_chart = PairChart(session)
        self.words = WordsPane(session)
        self.history_chart = HistoryChart(session)
        self.encode = EncodePane()
        self.merges = MergesTable(session)
        self.presenter: Optional[PresenterWindow] = None
        session.decode_errors = saved_decode_errors(self.settings)  # before the first load (open_window)
        self.error_box: Optional[QMessageBox] = None
        self.discard_box: Optional[QMessageBox] = None
        self._inspectors: Dict[str, InspectorTab] = {}  # open vocabulary id -> its tab
        self.path_openers: List[Callable[[str], bool]] = []  # features' own files first (True: opened)
        self._build_central()
        self._build_menus()
        self.status = RunStatus(session, self.statusBar(), self.train_actions["cancel"])
        self._connect()
        install_features(self)  # the comparison tab, explain, ties, health, workspaces, ... (app/features/)
        self._restore_layout()
        self._restore_font_size()

    # -- layout -------------------------------------------------------------------------------------------
    def _build_central(self) -> None:
        top = self._splitter(Qt.Horizontal, "top", self.pair_chart, self.words, sizes=(540, 860))
        bottom = self._splitter(Qt.Horizontal, "bottom", self.history_chart, self.encode, self.merges,
                                sizes=(520, 460, 420))
        body = self._splitter(Qt.Vertical, "body", top, bottom, sizes=(440, 360))
        training = QWidget()
        layout = QVBoxLayout(training)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.controls)
        layout.addWidget(body, 1)
        self.tabs = QTabWidget(tabsClosable=True)
        self.tabs.addTab(training, "Training")
        self.tabs.tabBar().setTabButton(0, self.tabs.tabBar().ButtonPosition.RightSide, None)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.setCentralWidget(self.tabs)

    def _splitter(self, orientation, name: str, *widgets, sizes=()) -> QSplitter:
        splitter = QSplitter(orientation, objectName=f"splitter_{name}")
        for w in widgets:
            splitter.addWidget(w)
        splitter.setSizes(list(sizes))
        splitter.setChildrenCollapsible(False)
        return splitter

    def make_action(self, text: str, slot: Callable, shortcut=None, name: str = "") -> QAction:
        """A window action named ``action_<name>`` (tests and Help → Keys find it by that name)."""
        action = QAction(text, self, objectName=f"action_{name or text.split('…')[0].lower().replace(' ', '_')}")
        if shortcut:
            keys = shortcut if isinstance(shortcut, (list, tuple)) else [shortcut]
            action.setShortcuts([QKeySequence(k) for k in keys])
        action.triggered.connect(lambda *_: slot())
        return action

    def _build_menus(self) -> None:
        a, ta = self.make_action, self.train_actions
        self.open_action = a("Open corpus…", self.choose_corpus, QKeySequence.Open, "open_corpus")
        self.open_vocab_action = a("Open vocabulary…", self.choose_vocabulary, "Ctrl+Shift+O", "open_vocabulary")
        self.settings_action = a("Training settings…", self.edit_settings, "Ctrl+,", "settings")
        self.presenter_action = a("Presenter mode", self.enter_presenter, "F11", "presenter")
        file = self.menuBar().addMenu("&File")
        file.addActions([self.open_action, self.open_vocab_action])
        self.recent_menu = file.addMenu("Recent corpora")
        self.recent_menu.aboutToShow.connect(
            lambda: fill_menu(self.recent_menu, self.recent_files(), self.load_corpus))
        self.recent_vocab_menu = file.addMenu("Recent vocabularies")
        self.recent_vocab_menu.aboutToShow.connect(
            lambda: fill_menu(self.recent_vocab_menu, self.recent_vocabularies(), self.open_vocabulary_path))
        self.examples_menu = file.addMenu("Examples")
        fill_examples(self.examples_menu, lambda e: open_example(self, e))
        file.addSeparator()
        file.addAction(a("Save vocabulary…", self.save_vocabulary, QKeySequence.Save, "save_vocabulary"))
        export_menu = file.addMenu("Export")
        export_menu.addAction(a("Pair chart as PNG/SVG…", lambda: self.export_chart(self.pair_chart.plot_item,
                                                                                   "pairs"), name="export_pairs"))
        export_menu.addAction(a("History charts as PNG/SVG…", lambda: self.export_chart(
            self.history_chart.layout_widget.scene(), "history"), name="export_history"))
        export_menu.addAction(a("Merges as CSV…", self.export_merges, name="export_merges"))
        file.addSeparator()
        file.addAction(a("Close tab", lambda: self.close_tab(self.tabs.currentIndex()), QKeySequence.Close,
                         "close_tab"))
        file.addAction(a("Quit", self.close, QKeySequence.Quit, "quit"))
        edit = self.menuBar().addMenu("&Edit")
        edit.addAction(a("Find word", self.words.focus_filter, QKeySequence.Find, "find"))
        edit.addAction(self.settings_action)
        view = self.menuBar().addMenu("&View")
        view.addAction(self.presenter_action)
        view.addAction(a("Larger font", lambda: self.change_font_size(+1), ["Ctrl++", "Ctrl+="], "font_larger"))
        view.addAction(a("Smaller font", lambda: self.change_font_size(-1), "Ctrl+-", "font_smaller"))
        train = self.menuBar().addMenu("&Train")
        for name in ("step", "step_n", "undo", "undo_n", "play", "run", "cancel", "reset"):
            train.addAction(ta[name])
        self.addActions(list(ta.actions.values()))
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(a("Keys…", self.show_keys, "F1", "keys"))
        help_menu.addAction(a("About BPE Lens…", self.show_about, name="about"))
        bar = self.addToolBar("Main")
        bar.setObjectName("main_toolbar")
        bar.addActions([self.open_action, self.open_vocab_action])
        bar.addSeparator()
        bar.addWidget(QLabel(" preset: "))
        self.preset_box = PresetBox(self.session, lambda: confirm_reset(self, self.session))  # Space steps after
        bar.addWidget(self.preset_box)
        bar.addAction(self.settings_action)
        bar.addSeparator()
        bar.addAction(self.presenter_action)
        self.menus = {"file": file, "export": export_menu, "edit": edit, "view": view, "train": train,
                      "help": help_menu}

    def _connect(self) -> None:
        s = self.session
        self.controls.seek_requested.connect(s.seek)
        self.controls.speed_changed.connect(s.set_speed)
        self.merges.seek_requested.connect(s.seek)
        s.caught_up.connect(self.pair_chart.refresh)  # the trainer's exact top pairs after a seek
        self.encode.observe(s)
        self.encode.editor.textChanged.connect(lambda: s.workbench.set_encode_text(self.encode.text()))
        s.corpus_loaded.connect(self._on_session_corpus_loaded)
        s.error_raised.connect(self._on_session_error_raised)
        s.workbench.vocabulary_opened.connect(self._on_workbench_vocabulary_opened)
        s.workbench.vocabulary_closed.connect(self._on_workbench_vocabulary_closed)
        s.config_changed.connect(self._on_session_config_changed)

    # -- commands -----------------------------------------------------------------------------------------
    def open_path(self, path: str) -> None:
        """Open a dropped / chosen file: a vocabulary when its content says so (or a folder: seed 000's
        tables, a tokenizer.json or vocab.json + merges.txt), anything else as a corpus."""
        if any(opener(path) for opener in self.path_openers):
            return
        if is_vocabulary(path):
            self.open_vocabulary_path(path)
        else:
            self.load_corpus(path)

    def open_vocabulary_path(self, path: str) -> None:
        """Open a vocabulary (a ``.tiktoken`` file of our own: the user picks its split pattern)."""
        pattern = export.ask_tiktoken_pattern(self, path)
        if pattern is not False:
            self.session.open_vocabulary(path, pattern=pattern)

    def load_corpus(self, path, config: Optional[TrainerConfig] = None) -> None:
        """Train on another corpus (with ``config``: these settings, e.g. an example's own preset),
        after asking when that would discard trained merges. ``path``: a file, or several (one corpus)."""
        first = corpus_paths(path)[0]  # a word-count table brings its word settings
        if self.ask_to_discard(opening_action(self.session, corpus_paths(path), config)):
            current = text_rule(own_config(self))  # not an example's; a parity rule reads languages, not a text
            self.session.load_corpus(path, config or config_for_table(first, current) or current)

    def ask_to_discard(self, action: str) -> bool:
        """Whether the user lets ``action`` throw away the merges trained, the window's run's and the other runs'
        it discards (no question when there are none). The box is kept in ``discard_box`` while it is open so
        that a test can answer it."""
        n, others = trained_merges(self.session), other_runs_lost(self.session)
        if n == 0 and not any(merges for _name, merges, _branch in others) or is_saved(self.session):
            return True  # nothing trained, or all of it in the workspace just saved
        self.discard_box = discard_box(self, action, n, others)
        try:
            return self.discard_box.exec() == QMessageBox.Yes
        finally:
            self.discard_box = None

    def close_tab(self, index: int) -> None:
        """Close a tab (Ctrl+W); the Training tab stays. A vocabulary's tab closes the vocabulary (the tab
        goes when the Workbench says it is closed)."""
        widget = self.tabs.widget(index) if index > 0 else None
        if self.vocabulary_id(widget) is not None:
            self.session.workbench.close_vocabulary(self.vocabulary_id(widget))
        elif widget is not None:
            self.tabs.removeTab(index)
            self.tab_closed.emit(widget)

    def _on_tabs_current_changed(self, index: int) -> None:
        self.session.workbench.select(self.vocabulary_id(self.tabs.widget(index)))  # the training: None

    def vocabulary_id(self, widget) -> Optional[str]:
        """The id of the open vocabulary ``widget`` shows (None: not a vocabulary's tab)."""
        return next((vid for vid, tab in self._inspectors.items() if tab is widget), None)

    def inspector(self, vocabulary_id: str) -> Optional[InspectorTab]:
        return self._inspectors.get(vocabulary_id)

    def tab_order(self) -> List[str]:
        """The open vocabularies' ids in the order their tabs stand."""
        return sorted(self._inspectors, key=lambda vid: self.tabs.indexOf(self._inspectors[vid]))

    def change_font_size(self, delta: int) -> None:
        settings_store.save_font_size(self.settings, change_app_font_size(delta))

    def _restore_font_size(self) -> None:
        points = settings_store.saved_font_size(self.settings)
        if points:
            set_app_font_size(points)

    def choose_corpus(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Open corpus", str(self._last_dir()),
                                                "Text (*.txt *.raw *.gz *.bz2 *.xz);;All files (*)")
        if paths:  # several files are one corpus, as the CLI counts them
            self.load_corpus(paths[0] if len(paths) == 1 else paths)

    def choose_vocabulary(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open vocabulary", str(self._last_dir()),
                                              "Vocabularies (*.json *.model *.tiktoken merges.txt);;All files (*)")
        if path:
            self.open_vocabulary_path(path)

    def edit_settings(self) -> None:
        s = self.session
        config, languages = rule_config(self), run_languages(s)  # the rule's settings as the user gave them
        dialog = SettingsDialog(config, self, decode_errors=s.decode_errors, languages=languages)
        if dialog.exec() and (dialog.config(), dialog.decode_errors(), dialog.languages()) != (
                config, s.decode_errors, languages) and confirm_reset(self, s):
            s.decode_errors = dialog.decode_errors()
            save_decode_errors(self.settings, s.decode_errors)
            start_rule_run(self, dialog.config(), dialog.languages())  # a rule may need more than new settings

    def enter_presenter(self) -> None:
        if self.presenter is None:
            self.presenter = PresenterWindow(self.session, self.train_actions)
            self.words.word_selected.connect(self._on_words_word_selected)
        self.presenter.enter()

    def _on_words_word_selected(self, index: int) -> None:
        chosen = self.presenter.showcase.word_indices
        if index not in chosen:
            self.presenter.set_words((chosen + [index])[-12:])

    def _save_path(self, title: str, name: str, filters: str):
        return QFileDialog.getSaveFileName(self, title, str(export.default_folder(self) / name), filters)

    def save_vocabulary(self) -> None:
        path, flt = self._save_path("Save vocabulary", "vocabulary.json", ";;".join(export.VOCAB_FORMATS.values()))
        if path:
            self._guarded(lambda: export.save_vocabulary(self.session.model(), path, export.format_for(path, flt),
                                                         inputs=export.app_inputs(self)))

    def export_chart(self, item, name: str) -> None:
        path, _ = self._save_path("Export chart", f"{name}.png", export.CHART_FILTER)
        if path:
            self._guarded(lambda: export.export_chart(item, path, inputs=export.app_inputs(self)))

    def export_merges(self) -> None:
        path, _ = self._save_path("Export merges", "merges.csv", "CSV (*.csv)")
        if path:
            self._guarded(lambda: export.export_merges_csv(self.session.history, path,
                                                           inputs=export.app_inputs(self)))

    def _guarded(self, fn: Callable[[], str]) -> None:
        try:
            self.statusBar().showMessage(f"Saved {export.saved(self, fn())}", 5000)
        except Exception as exc:  # noqa: BLE001 - shown to the user, nothing else changes
            self._on_session_error_raised(user_message(exc))

    def show_about(self) -> None:
        from .info import about_html

        QMessageBox.about(self, "About BPE Lens", about_html())

    def show_keys(self) -> None:
        QMessageBox.information(self, "Keys", "\n".join(key_lines(self)))

    # -- session facts ------------------------------------------------------------------------------------
    def _on_session_corpus_loaded(self, info) -> None:
        self.setWindowTitle(f"BPE Lens — {info.name} ({info.config.preset})")
        self._remember(info.path)

    def _on_session_config_changed(self, config) -> None:
        settings_store.save_config(self.settings, own_config(self))  # an example's settings are not the user's

    def _on_workbench_vocabulary_opened(self, vocabulary) -> None:
        if vocabulary.path:
            settings_store.remember(self.settings, RECENT_VOCABULARIES, vocabulary.path)
        tab = self._inspectors[vocabulary.id] = InspectorTab(vocabulary.model, vocabulary.name)
        self.inspector_made.emit(tab, vocabulary)
        self.tabs.setCurrentIndex(self.tabs.addTab(tab, f"Inspect: {vocabulary.name}"))

    def _on_workbench_vocabulary_closed(self, vocabulary_id: str) -> None:
        tab = self._inspectors.pop(vocabulary_id, None)
        if tab is not None:
            self.tabs.removeTab(self.tabs.indexOf(tab))
            self.tab_closed.emit(tab)

    def _on_session_error_raised(self, message: str) -> None:
        self.status.idle(message, 15000)
        self.error_box = QMessageBox(QMessageBox.Warning, "BPE Lens", message, QMessageBox.Ok, self)
        if is_decode_error(message) and self.session.last_load:  # the CLI's --errors replace, one click away
            button = self.error_box.addButton(REPLACE_BUTTON, QMessageBox.AcceptRole)
            button.clicked.connect(self.decode_with_replacement)
        self.error_box.open()  # not modal-blocking: the window stays live

    def decode_with_replacement(self) -> None:
        """Load the corpus that failed to decode again, reading bytes that are not UTF-8 as U+FFFD (and
        remember that choice, as the training settings' "Decode errors" does)."""
        self.session.decode_errors = "replace"
        save_decode_errors(self.settings, "replace")
        self.session.load_corpus(*self.session.last_load)

    # -- recent files, examples, drag and drop, layout ---------------------------------------------------
    def _remember(self, path: str) -> None:
        if Path(path).resolve().parent == (RESOURCES / "corpus").resolve():
            return  # the built-in default is always there
        settings_store.remember(self.settings, RECENT_CORPORA, path)
        self.settings.setValue("last_dir", str(Path(path).parent))

    def recent_files(self) -> List[str]:
        return settings_store.recent(self.settings, RECENT_CORPORA)

    def recent_vocabularies(self) -> List[str]:
        return settings_store.recent(self.settings, RECENT_VOCABULARIES)

    def _last_dir(self) -> Path:
        return Path(self.settings.value("last_dir", str(Path.home())))

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        for url in event.mimeData().urls():
            self.open_path(url.toLocalFile())
        event.acceptProposedAction()

    def _restore_layout(self) -> None:
        #: whether a remembered geometry was restored (then kept inside the screen); else the first
        #: window is sized from the screen (:func:`~bpe_lens_app.layout_state.place_window`)
        self.layout_restored = restore_layout(self, self.settings)

    def save_layout(self) -> None:
        save_layout(self, self.settings)

    def closeEvent(self, event) -> None:
        if not self.ask_to_discard("Quitting"):
            event.ignore()
            return
        self.save_layout()
        self.session.shutdown()
        if self.presenter is not None:
            self.presenter.close()
        super().closeEvent(event)
