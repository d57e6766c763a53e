"""Render the views to PNG files for docs and for a human look: ``python scripts/screenshots.py OUTDIR``.

* ``main_window.png`` — the main window after 50 merges on the built-in corpus;
* ``presenter_<W>x<H>[_2x].png`` — presenter mode (F11) at the same point, a merge having just fired, full
  screen on 1024x768, 1280x720, 1440x900, 1920x1080, 3840x2160 and 1920x1080 at 2x (``--only presenter``:
  each in a process of its own, on Qt's offscreen platform given that screen);
* ``encode_pane.png`` — the encode pane on mixed English / Chinese / emoji text;
* ``inspector.png`` — the vocabulary inspector on GPT-2's tokenizer.json with a token's merge tree;
* ``main_window_chinese.png`` — the main window training on Chinese (Romance of the Three Kingdoms) with the
  ``cjk-mixed`` preset after 100 merges: multi-character chips such as 玄德 and 曹操;
* ``main_window_1024x700.png`` — the main window on a small screen (one history chart, picked by tabs);
* ``encode_pane_unknown.png`` — the ``cjk-mixed`` example (seed 004) encoding text with characters outside
  its vocabulary (世, 界, !, 🤖): each shows as itself on a white chip with a dotted red outline, id −1.

* ``export_dialog.png`` — File → Export → Animation of merges… after exporting merges 0..30 (the GIF is
  written beside it as ``export_dialog.gif``); ``pair_chart_2x.png`` — the pair chart exported at 2x.
* ``curves.png`` — tokens per word by script (View → Tokens per word by script) while training on the
  Chinese + English + German example with the ``cjk-mixed`` preset;
* ``health.png`` — vocabulary health of GPT-2 on WikiText-2's wiki.valid.raw (View → Vocabulary health).

* ``compare.png`` — the comparison tab, GPT-2's tokenizer.json against GPT-NeoX-20B's: the first divergent merge,
  the merges side by side from there, NeoX's own tokens, a text cut differently (highlighted) and the merge trees
  of `` Lincoln`` on both sides;

* ``ties.png`` — seed 001's sentence (byte-ascii) at merge 0: the two pairs tied at count 3 outlined in
  the pair chart, the Ties & branches dock with each rule's pick and why; ``ties_branches.png`` — seed 003
  (hf-course) under the defaults after 10 steps (Space), Undo ×2, "Merge this instead" on the last of 7 tied pairs at
  merge 9 and a step on that branch: the ties at merge 11, the two branches and them compared side by side;

* ``restore.png`` — the offer to restore the last session at start, after a crash at merge 30.

* ``explain.png`` — Why this split: GPT-2's tokenizer.json in an inspector, the chip of " tokenization"
  clicked: its merges step by step in the dock, and why " token" + "ization" stay apart;

``--theme dark`` (or ``light``) renders under that View → Theme and names each file after it
(``main_window_dark.png``, ``presenter_1920x1080_dark.png``: a theme renders the presenter on 1920x1080
only); ``--only training`` and ``--only presenter`` with ``--theme dark`` make the dark ones in
docs/screenshots. ``--dark`` renders under a dark *system* palette instead (what a user with a dark
desktop theme sees on System), under the usual names.

Runs offscreen unless a display is set (``xvfb-run -a -s "-screen 0 1600x1000x24" python ...`` for a
real X server); the images of the default views are at least 1280x800, the small-screen ones at their size.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEventLoop, QSettings, QSize, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

DATA = Path(os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data")
GPT2_TOKENIZER = DATA / "gpt2" / "tokenizer.json"
NEOX_TOKENIZER = DATA / "gpt-neox-20b" / "20B_tokenizer.json"
SANGUO = DATA / "chinese" / "sanguo_yanyi.txt"
SIZE = QSize(1440, 900)
#: the View → Theme the views are rendered under (``--theme``)
THEME = "system"


def scratch_settings() -> QSettings:
    """Default layout: settings in a fresh temporary file, never the user's (the theme of ``--theme``
    chosen in View → Theme)."""
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "screenshots.ini"), QSettings.Format.IniFormat)
    settings.setValue("view/theme", THEME)
    return settings


def wait_for(*signals, timeout_ms: int = 120_000) -> None:
    """Run the event loop until one of ``signals`` fires (a script's wait, not app code)."""
    loop = QEventLoop()
    for signal in signals:
        signal.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    for signal in signals:
        signal.disconnect(loop.quit)


def settle(ms: int = 250) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def render_training(outdir: Path, corpus: str, preset: str | None, steps: int) -> list[Path]:
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, default_config

    settings = scratch_settings()
    session = Session(config=default_config(preset))
    window = MainWindow(session, settings)
    window.resize(SIZE)
    window.show()
    session.error_raised.connect(lambda m: print("error:", m, file=sys.stderr))
    session.load_corpus(corpus)
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(steps - 1)
    if session.is_running:
        wait_for(session.run_finished)
    window.words.select_word(window.words.model.word_index(min(5, window.words.model.rowCount() - 1)))
    window.encode.set_text("The lowest tokens merge first: lower, lowest, newer, newest.\n分词：学习")
    session.step()  # the 50th merge fires: highlights and flashes are visible
    window.encode.encode_now()
    settle(80)
    out = [outdir / "main_window.png"]
    window.grab().save(str(out[0]))
    window.resize(QSize(1024, 700))  # a small laptop screen
    session.step()
    settle(120)
    out.append(outdir / "main_window_1024x700.png")
    window.grab().save(str(out[-1]))
    window.close()
    return out


#: the presenter's screens: (width, height, scale)
PRESENTER_SCREENS = ((1024, 768, 1), (1280, 720, 1), (1440, 900, 1), (1920, 1080, 1), (3840, 2160, 1), (1920, 1080, 2))


def render_presenter_screens(outdir: Path, corpus: str, steps: int) -> list[Path]:
    """Each screen in a process of its own (Qt takes its screens when the application starts)."""
    import json
    import subprocess

    out = []
    for w, h, scale in PRESENTER_SCREENS if THEME == "system" else PRESENTER_SCREENS[3:4]:  # a theme: 1920x1080
        config = Path(tempfile.mkdtemp()) / "screens.json"
        config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": w, "height": h,
                                                   "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
        env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=str(scale))
        env.pop("DISPLAY", None)
        name = f"presenter_{w}x{h}" + ("_2x" if scale > 1 else "") + ".png"
        subprocess.run([sys.executable, __file__, str(outdir), "--corpus", corpus, "--steps", str(steps),
                        "--only", "presenter", "--screen", name, "--theme", THEME], env=env, check=True)
        out.append(outdir / name)
    return out


def render_presenter(path: Path, corpus: str, steps: int) -> None:
    """Presenter mode full screen on this process's screen, merge ``steps`` having just fired."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    session = Session()
    window = MainWindow(session, scratch_settings())
    window.show()
    session.load_corpus(corpus)
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(steps - 1)
    if session.is_running:
        wait_for(session.run_finished)
    window.enter_presenter()
    presenter = window.presenter
    presenter.encode.set_text("The lowest tokens merge first: lower, lowest, newer, newest. Byte pair encoding "
                              "merges the most frequent pair of adjacent symbols into a new symbol, again and "
                              "again, until the vocabulary reaches the size asked for.")
    settle(200)  # full screen comes with the next events
    session.step()
    presenter.encode.encode_now()
    settle(80)
    presenter.grab().save(str(path))
    presenter.leave()
    window.close()


def render_unknown_characters(outdir: Path) -> list[Path]:
    """The encode pane on the cjk-mixed example (its own preset, 20 merges) with text it has no
    tokens for: every unknown character reads as itself, marked, with id −1 under it."""
    from bpe_lens_app.features.examples.catalog import EXAMPLES
    from bpe_lens_app.panes.encode_pane import EncodePane
    from bpe_lens_app.session.session import Session

    example = next(e for e in EXAMPLES if e.file == "seed004_mixed.txt")
    session = Session(config=example.config())
    session.load_corpus(str(example.path))
    wait_for(session.corpus_loaded, session.error_raised)
    session.step(20)
    pane = EncodePane()
    pane.resize(QSize(1000, 360))
    pane.show()
    pane.observe(session)
    pane.follow(session.model)
    pane.ids_toggle.setChecked(True)
    pane.set_text("Hello 世界! 🤖 BPE 是一种常用的分词算法, widely used in NLP.")
    pane.encode_now()
    settle(80)
    out = outdir / "encode_pane_unknown.png"
    pane.grab().save(str(out))
    pane.close()
    session.shutdown()
    return [out]


def render_chinese(outdir: Path) -> list[Path]:
    """The first 400 lines of 三国演义 with the ``cjk-mixed`` preset (seed 004), 100 merges: names as chips."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, make_config

    if not SANGUO.exists():
        print(f"skipped Chinese: {SANGUO} not found", file=sys.stderr)
        return []
    corpus = Path(tempfile.mkdtemp()) / "sanguo_400.txt"
    corpus.write_text("".join(SANGUO.read_text(encoding="utf-8").splitlines(keepends=True)[:400]), encoding="utf-8")
    settings = scratch_settings()
    session = Session(config=make_config("cjk-mixed", num_merges=300))
    window = MainWindow(session, settings)
    window.resize(SIZE)
    window.show()
    session.load_corpus(str(corpus))
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(99)
    if session.is_running:
        wait_for(session.run_finished)
    # the most frequent word with a name in it (cjk-mixed: a Han run between punctuation is one word)
    names = [i for i, w in enumerate(session.words) if "玄德" in w]
    window.words.select_word(names[0] if names else window.words.model.word_index(3))
    window.encode.set_text("却说曹操引兵追赶刘备，关羽、张飞与赵云护着。玄德曰：“吕布、董卓，皆天下之贼也。”")
    session.step()
    window.encode.encode_now()
    settle(80)
    out = outdir / "main_window_chinese.png"
    window.grab().save(str(out))
    window.close()
    corpus.unlink()
    return [out]


def render_other_panes(outdir: Path) -> list[Path]:
    """The encode pane and the inspector come from their own modules' demo renderers."""
    from bpe_lens_app.demo import render_encode_pane_demo, render_inspector_demo

    out = [Path(render_encode_pane_demo(str(outdir / "encode_pane.png"), size=QSize(1280, 800)))]
    if GPT2_TOKENIZER.exists():
        out.append(Path(render_inspector_demo(str(outdir / "inspector.png"), str(GPT2_TOKENIZER))))
    else:
        print(f"skipped the inspector: {GPT2_TOKENIZER} not found", file=sys.stderr)
    return out


def render_exports(outdir: Path, corpus: str) -> list[Path]:
    """The animation dialog after an export of merges 0..30, and the pair chart exported at 2x."""
    from bpe_lens_app.features.exports import files as export
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    session = Session()
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    session.load_corpus(corpus)
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(30)
    if session.is_running or session.is_catching_up:
        wait_for(session.run_finished, session.caught_up)
    settle(120)
    chart = Path(export.export_chart(window.pair_chart.plot_item, str(outdir / "pair_chart_2x.png")))
    dialog = window.slide_exports.animate()
    dialog.words.setText("the, Elizabeth")
    dialog.text.setText("It is a truth universally acknowledged.")
    dialog.path.setText(str(outdir / "export_dialog.gif"))
    dialog.start()
    wait_for(dialog.exported, dialog.calls.errored)
    settle(80)
    out = outdir / "export_dialog.png"
    dialog.grab().save(str(out))
    dialog.close()
    window.close()
    return [out, chart]


def render_health(outdir: Path) -> list[Path]:
    """GPT-2 (tokenizer.json) on wiki.valid.raw: token statuses, usage by rank, fertility per script."""
    from bpe_core.formats.detect import open_vocabulary
    from bpe_lens_app.features.health.actions import open_health
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    wiki = DATA / "wikitext-2-raw" / "wiki.valid.raw"
    if not (GPT2_TOKENIZER.exists() and wiki.exists()):
        print(f"skipped health: {GPT2_TOKENIZER} or {wiki} not found", file=sys.stderr)
        return []
    window = MainWindow(Session(), scratch_settings())
    window.resize(SIZE)
    window.show()
    pane = open_health(window, open_vocabulary(str(GPT2_TOKENIZER)), [str(wiki)])
    wait_for(pane.finished, pane.failed)
    pane.table.sortByColumn(2, Qt.DescendingOrder)  # the latest merges first: where unused tokens gather
    settle(150)
    out = outdir / "health.png"
    window.grab().save(str(out))
    window.close()
    return [out]


def render_curves(outdir: Path) -> list[Path]:
    """The Chinese, English and German novels example, 300 merges, with the per-script curves dock."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, make_config

    window = MainWindow(Session(config=make_config("cjk-mixed", num_merges=300)), scratch_settings())
    window.resize(SIZE)
    window.show()
    window.findChild(type(window.open_action), "action_script_curves").trigger()
    session = window.session
    session.load_corpus(str(ROOT / "resources" / "examples" / "seed004_zh_en_de.txt"))
    wait_for(session.corpus_loaded, session.error_raised)
    for _ in range(12):  # as a user stepping by 25 sees it: a point per step
        session.step(25)
        if session.is_running:
            wait_for(session.run_finished)
    settle(150)
    out = outdir / "curves.png"
    window.grab().save(str(out))
    window.close()  # shuts the session down
    return [out]


def render_compare(outdir: Path) -> list[Path]:
    """View → Compare vocabularies: GPT-2 (A) against GPT-NeoX-20B (B), in the main window."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.features.compare.pane import CompareTab
    from bpe_lens_app.session.session import Session

    if not (GPT2_TOKENIZER.exists() and NEOX_TOKENIZER.exists()):
        print("skipped the comparison: GPT-2 or NeoX tokenizer.json not found", file=sys.stderr)
        return []
    session = Session()
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    window.compare_feature.compare(str(GPT2_TOKENIZER), str(NEOX_TOKENIZER), "GPT-2", "GPT-NeoX-20B")
    while not isinstance(window.tabs.currentWidget(), CompareTab):
        settle(100)
    tab = window.tabs.currentWidget()
    tab.select_kind("only B")
    tab.text_edit.setPlainText("def tokenize(text):\n        return  text.split()  # NeoX keeps runs of spaces")
    tab.encode_text()
    tab.token_box.setText(" Lincoln")
    tab.show_trees_for_text(" Lincoln")
    settle(150)
    out = outdir / "compare.png"
    window.grab().save(str(out))
    window.close()
    session.shutdown()
    return [out, render_compare_continued(outdir)]


def render_compare_continued(outdir: Path) -> Path:
    """GPT-2 continued on a small mixed-language text, then compared with GPT-2 itself."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.features.compare.pane import CompareTab
    from bpe_lens_app.session.session import Session
    from bpe_core.formats.detect import open_vocabulary

    gpt2 = open_vocabulary(GPT2_TOKENIZER)
    session = Session()
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    corpus = ROOT / "resources" / "examples" / "seed004_zh_en_de.txt"
    window.compare_feature.train_further(gpt2, str(corpus), "GPT-2")
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(60)
    if session.is_running:
        wait_for(session.run_finished)
    window.compare_feature.compare(gpt2, session.model(), "GPT-2", "GPT-2 + 60 merges")
    while not isinstance(window.tabs.currentWidget(), CompareTab):
        settle(100)
    tab = window.tabs.currentWidget()
    tab.select_kind("only B")
    tab.text_edit.setPlainText(corpus.read_text(encoding="utf-8")[:90])
    tab.encode_text()
    model = tab.tokens_model  # select a new token that is whole characters (most are pieces of one)
    rows = [r for r in range(model.rowCount()) if len(model.token(r)) >= 6 and _is_text(model.token(r))]
    tab.tokens_view.setCurrentIndex(model.index(rows[0] if rows else 0, 0))
    settle(150)
    out = outdir / "compare_continued.png"
    window.grab().save(str(out))
    window.close()  # shuts the session down
    return out

def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def render_ties(outdir: Path) -> list[Path]:
    """Seed 001's example with its preset: ties at merge 0, the inspector, then a branch compared."""
    from bpe_lens_app.features.examples.catalog import EXAMPLES
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    example = next(e for e in EXAMPLES if e.file == "seed001_sentence.txt")
    session = Session(config=example.config())
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    session.load_corpus(str(example.path))
    wait_for(session.corpus_loaded, session.error_raised)
    session.step(3)
    session.seek(0)
    feature = window.ties
    feature.dock.show()
    window.resizeDocks([feature.dock], [560], Qt.Horizontal)
    pane = feature.pane
    pane.select_pair(pane.pairs()[1])
    settle(120)
    out = [outdir / "ties.png"]
    window.grab().save(str(out[0]))
    window.close()
    session.shutdown()
    out.append(_render_ties_branches(outdir / "ties_branches.png"))
    return out


def _until(done, ms: int = 20_000) -> None:
    """Run the event loop until ``done()`` (a script's wait)."""
    for _ in range(ms // 20):
        if done():
            return
        settle(20)
    raise SystemExit("screenshots: the ties view did not reach the state it shows")


def _render_ties_branches(out: Path) -> Path:
    """Seed 003 (hf-course) under the app's defaults (read-ahead on), driven with the keys: 10 steps, Undo twice
    (merge 9: 7 pairs tied at count 4), the last tied pair picked by hand (a branch), one step on it, then
    main selected and compared: the dock after 10 steps with two branches."""
    from PySide6.QtTest import QTest

    from bpe_lens_app.features.examples.catalog import EXAMPLES
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    example = next(e for e in EXAMPLES if e.file == "seed003_sentences.txt")
    session = Session(config=example.config())
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    session.load_corpus(str(example.path))
    wait_for(session.corpus_loaded, session.error_raised)
    feature = window.ties
    feature.dock.show()
    window.resizeDocks([feature.dock], [600], Qt.Horizontal)
    pane, branches = feature.pane, feature.branches_pane
    for k in range(1, 11):
        QTest.keyClick(window, Qt.Key_Space)
        _until(lambda: session.merge_count == k and pane.header.text().startswith(f"Merge {k + 1}:"))
    for k in (9, 8):
        QTest.keyClick(window, Qt.Key_Backspace)
        _until(lambda: session.merge_count == k and pane.header.text().startswith(f"Merge {k + 1}:"))
    pane.select_pair(feature.commands.ties().candidates[-1].pair)  # the last tied pair: the futures differ most
    pane.pick_button.click()
    _until(lambda: len(branches.branch_texts()) == 2)
    QTest.keyClick(window, Qt.Key_Space)
    _until(lambda: session.merge_count == 10 and pane.header.text().startswith("Merge 11:"))
    branches.select_branch(0)
    branches.compare_button.click()
    settle(200)
    window.grab().save(str(out))
    window.close()
    session.shutdown()
    return out


def render_restore(outdir: Path) -> list[Path]:
    """The restore offer at start after a crash: a session at merge 30 with encode text was autosaved by
    a process that is gone; a fresh window asks, in front of it (the box painted onto the window's image)."""
    import subprocess

    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QMessageBox

    from bpe_core.formats.workspace import write_workspace
    from bpe_lens_app.__main__ import DEFAULT_CORPUS
    from bpe_lens_app.features.workspace.autosave import autosave_path, data_dir
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    os.environ["BPE_LENS_APP_DATA"] = tempfile.mkdtemp()  # a scratch data folder, never the user's
    first = MainWindow(Session(), scratch_settings())
    first.session.load_corpus(str(DEFAULT_CORPUS))
    wait_for(first.session.corpus_loaded)
    first.session.seek(30)
    wait_for(first.session.run_finished)
    first.encode.set_text("The lowest tokens merge first: lower, lowest, newer, newest.")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    write_workspace(first.workspace.capture(), str(autosave_path(data_dir(), int(gone.stdout))))
    first.workspace.finish()
    first.session.shutdown()  # not close(): the window goes as a crashed process's would
    first.deleteLater()
    window = MainWindow(Session(), scratch_settings())
    window.resize(SIZE)
    window.show()
    out = outdir / "restore.png"

    def shoot() -> None:
        box = window.workspace.question
        settle(100)
        image = window.grab()
        shot = box.grab()
        painter = QPainter(image)
        painter.drawPixmap((image.width() - shot.width()) // 2, (image.height() - shot.height()) // 3, shot)
        painter.end()
        image.save(str(out))
        box.button(QMessageBox.No).click()

    QTimer.singleShot(300, shoot)
    window.workspace.offer_restore()
    window.workspace.finish()
    window.close()
    return [out]


def render_table(outdir: Path) -> list[Path]:
    """The main window on a word-count table (three real files counted by the local engine with the
    gpt2 preset, opened with File -> Open over char-whitespace settings) after 30 merges."""
    from bpe_core.corpus.engines import count_table
    from bpe_core.corpus.table import write_parquet
    from bpe_core.presets import make_config
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, default_config

    files = [DATA / "wikitext-2-raw" / "wiki.valid.raw", DATA / "tinyshakespeare.txt", SANGUO]
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        print(f"skipped the word-count table: {', '.join(missing)} not found", file=sys.stderr)
        return []
    try:
        import pyarrow  # noqa: F401 - the table is Parquet
    except ImportError:
        print("skipped the word-count table: Parquet tables need pyarrow (pip install bpe-lens[parquet])", file=sys.stderr)
        return []
    cfg = make_config("gpt2")
    counts, firsts = count_table(files, cfg, workers=2)
    table = Path(tempfile.mkdtemp()) / "three_files.parquet"
    write_parquet(table, counts, firsts, cfg, [(str(p), p.stat().st_size) for p in files])
    session = Session(config=default_config("char-whitespace"))
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    session.error_raised.connect(lambda m: print("error:", m, file=sys.stderr))
    window.open_path(str(table))
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(29)
    if session.is_running:
        wait_for(session.run_finished)
    settle(120)
    out = [outdir / "main_window_table.png"]
    window.grab().save(str(out[0]))
    window.close()
    return out


def render_explain(outdir: Path) -> list[Path]:
    """Why this split: GPT-2's tokenizer.json in an inspector tab; a chip of " tokenization" clicked."""
    from bpe_core.formats.detect import open_vocabulary
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.features.inspector.pane import InspectorTab
    from bpe_lens_app.session.session import Session

    if not GPT2_TOKENIZER.exists():
        print(f"skipped explain: {GPT2_TOKENIZER} not found", file=sys.stderr)
        return []
    window = MainWindow(Session(), scratch_settings())
    window.resize(SIZE)
    window.show()
    tab = InspectorTab(open_vocabulary(str(GPT2_TOKENIZER)))
    window.tabs.setCurrentIndex(window.tabs.addTab(tab, "Inspect: gpt2"))
    pane = tab.encode_pane
    pane.set_text("Why is tokenization so unbelievably odd? 三国演义 😀")
    pane.encode_now()
    enc = pane.encoding()
    i = [t.display for t in enc.tokens].index("Ġtoken")
    window.explain.explain_chip(pane, i)
    window.resizeDocks([window.explain.dock], [620], Qt.Horizontal)
    settle(120)
    out = [outdir / "explain.png"]
    window.grab().save(str(out[0]))
    window.close()
    return out + render_word_history(outdir)


def render_word_history(outdir: Path) -> list[Path]:
    """A training word's history in the same dock: 120 merges on the built-in corpus, a word clicked."""
    from bpe_lens_app.__main__ import DEFAULT_CORPUS
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.features.training.words_model import WORD_INDEX_ROLE
    from bpe_lens_app.session.session import Session, default_config

    session = Session(config=default_config(None))
    window = MainWindow(session, scratch_settings())
    window.resize(SIZE)
    window.show()
    session.load_corpus(str(DEFAULT_CORPUS))
    wait_for(session.corpus_loaded, session.error_raised)
    session.seek(120)
    if session.is_running:
        wait_for(session.run_finished)
    words = window.words
    rows = [words.model.index(r, 0) for r in range(min(200, words.model.rowCount()))]
    longest = max(rows, key=lambda ix: len(session.word_history(ix.data(WORD_INDEX_ROLE))))
    words.table.setCurrentIndex(longest)
    words.table.clicked.emit(longest)  # what a click on the row does
    window.explain.pane.show_frame(3)
    window.resizeDocks([window.explain.dock], [560], Qt.Horizontal)
    settle(120)
    out = outdir / "explain_history.png"
    window.grab().save(str(out))
    window.close()  # shuts the session down
    return [out]


#: the views ``--only`` renders one of (each branch of main() below)
ONLY = ("training", "presenter", "chinese", "others", "unknown", "exports", "health", "curves", "compare", "ties", "restore", "table", "explain",
        "variants", "picky", "measures", "biography")


def use_dark_palette(app: QApplication) -> None:
    """A dark palette like a desktop's dark theme gives Qt (light text on dark, disabled text greyed)."""
    from bpe_lens_app.widgets.theme import dark_palette

    app.setPalette(dark_palette())


def main(argv=None) -> int:
    from bpe_lens_app.__main__ import DEFAULT_CORPUS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--preset")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--only", choices=ONLY)
    parser.add_argument("--dark", action="store_true", help="render under a dark system palette")
    parser.add_argument("--theme", choices=("system", "light", "dark"), default="system",
                        help="render under this View → Theme (files named *_THEME.png)")
    parser.add_argument("--screen", help=argparse.SUPPRESS)  # (a presenter screen's own process: its file name)
    args = parser.parse_args(argv)
    outdir = Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    from bpe_lens_app.widgets.theme import apply_app_theme, configure_pyqtgraph

    apply_app_theme(app)
    from bpe_lens_app.main_window import MainWindow

    # a script answers no question: closing a window with merges trained would open a modal box and wait forever
    MainWindow.ask_to_discard = lambda self, action: True
    if args.dark:
        use_dark_palette(app)  # before any plot: chart colors may follow the palette
    if args.theme != "system":
        from bpe_lens_app.widgets.theme_choice import apply_theme

        global THEME
        THEME = args.theme
        apply_theme(args.theme)
    configure_pyqtgraph()
    written = []
    if args.screen:
        render_presenter(outdir / args.screen, args.corpus, args.steps)
        return 0
    if args.only in (None, "training"):
        written += render_training(outdir, args.corpus, args.preset, args.steps)
    if args.only in (None, "presenter"):
        written += render_presenter_screens(outdir, args.corpus, args.steps)
    if args.only in (None, "chinese"):
        written += render_chinese(outdir)
    if args.only in (None, "others"):
        written += render_other_panes(outdir)
    if args.only in (None, "unknown"):
        written += render_unknown_characters(outdir)
    if args.only in (None, "exports"):
        written += render_exports(outdir, args.corpus)
    if args.only in (None, "health"):
        written += render_health(outdir)
    if args.only in (None, "curves"):
        written += render_curves(outdir)
    if args.only in (None, "compare"):
        written += render_compare(outdir)
    if args.only in (None, "ties"):
        written += render_ties(outdir)
    if args.only in (None, "restore"):
        written += render_restore(outdir)
    if args.only in (None, "table"):
        written += render_table(outdir)
    if args.only in (None, "explain"):
        written += render_explain(outdir)
    if args.only in (None, "variants"):  # superbpe_branches.png, parity_vs_plain.png: scripts/screenshots_variants.py
        from screenshots_variants import render_variants

        written += render_variants(sys.modules[__name__], outdir)
    if args.only in (None, "picky"):  # picky_removals.png: scripts/screenshots_picky.py
        from screenshots_picky import render_picky

        written += render_picky(sys.modules[__name__], outdir)
    if args.only in (None, "measures"):  # measures_branches.png, measures_renyi.png: scripts/screenshots_measures.py
        from screenshots_measures import render_measures

        written += render_measures(sys.modules[__name__], outdir)
    if args.only in (None, "biography"):  # token_biography.png: scripts/screenshots_biography.py
        from screenshots_biography import render_biography

        written += render_biography(sys.modules[__name__], outdir)
    for path in written:
        if args.theme != "system" and path.suffix == ".png":
            path = path.replace(path.with_name(f"{path.stem}_{args.theme}{path.suffix}"))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
