"""``python -m bpe_lens_app`` / ``bpe-lens``: open the main window on a corpus (the built-in one by default).

``bpe-lens FILE`` opens FILE as a corpus, as a vocabulary in the inspector when its content
says it is one, or as a workspace (``.bpelens``). With no file, a session that did not exit cleanly
is offered back (``--no-restore``: not). ``--version`` and ``--info`` answer without a display (no QApplication).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from bpe_core import resources

DEFAULT_CORPUS = resources.default_corpus()
APP_ID = "bpe-lens"  # the .desktop file's name: window managers match the window to it (icon, grouping)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    from .info import version_line

    parser = argparse.ArgumentParser(
        prog="bpe-lens", description="Watch Byte-Pair Encoding learn, merge by merge.",
        epilog="examples:\n  bpe-lens\n  bpe-lens novel.txt --preset char-hf\n  bpe-lens tokenizer.json\n"
               "  bpe-lens --info", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a corpus to train on, a vocabulary to inspect (recognised by its content) "
                             "or a workspace (.bpelens) to restore")
    parser.add_argument("--corpus", metavar="PATH", help=f"text file to train on (default: {DEFAULT_CORPUS.name})")
    parser.add_argument("--preset", metavar="NAME", help="training preset (see Train → settings)")
    parser.add_argument("--vocab", metavar="PATH", help="also open a saved vocabulary in the inspector")
    parser.add_argument("--no-restore", action="store_true",
                        help="do not offer to restore a session that did not exit cleanly")
    parser.add_argument("--version", action="version", version=version_line("bpe-lens"))
    parser.add_argument("--info", action="store_true",
                        help="print the versions of every dependency and extra, the fonts, where the resources are; "
                             "check that they load and that a display is usable; exit 1 if the app could not start")
    parser.add_argument("--install-desktop", action="store_true",
                        help="add a menu entry that starts this installation (absolute paths), and exit")
    parser.add_argument("--uninstall-desktop", action="store_true", help="remove that menu entry, and exit")
    return parser.parse_args(argv)


def make_app():
    """The QApplication with the names desktops use: version, the .desktop file (icon, grouping), the icon."""
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from bpe_core import __version__
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("BPE Lens")
    app.setApplicationName("bpe-lens")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(QIcon(str(resources.icon())))
    return app


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if args.info:
        from .info import print_info
        return print_info()
    if args.install_desktop or args.uninstall_desktop:
        from . import desktop_entry
        return desktop_entry.install() if args.install_desktop else desktop_entry.uninstall()
    missing = [p for p in (args.file, args.corpus, args.vocab) if p and not os.path.exists(p)]
    if missing:  # said on the command line, before any window opens
        from bpe_core.base import no_such_file
        print(f"bpe-lens: {no_such_file(missing[0])}", file=sys.stderr)
        return 2
    from .display import missing_display

    no_display = missing_display()
    if no_display:  # Qt would abort (exit 134) with a message about a missing library
        print(f"bpe-lens: {no_display}", file=sys.stderr)
        return 2
    app = make_app()

    from bpe_core import BPELensError

    try:
        window, session = open_window(args)
    except BPELensError as exc:
        print(f"bpe-lens: {exc}", file=sys.stderr)
        return 2
    # quitting, even without closing the window (app.exit, a desktop session ending), stops every
    # worker and deletes the widgets while Python is whole (see _dispose)
    app.aboutToQuit.connect(lambda: _dispose(window, session))
    return app.exec()


def open_window(args: argparse.Namespace):
    """The window and session a user gets from ``bpe-lens ARGS``: the theme, the remembered settings, the
    first window's size, and the corpus, vocabulary or workspace named (or the offer to restore, then the
    default corpus). Shared by ``main`` and the journey tests (tests/app/test_journeys*.py), so that
    those drive exactly what a user starts. Raises BPELensError for a bad ``--preset``."""
    from .widgets.theme import apply_app_theme, configure_pyqtgraph

    app = make_app()
    configure_pyqtgraph()  # once, before any plot exists
    apply_app_theme(app)
    from .layout_state import place_window
    from .main_window import MainWindow
    from PySide6.QtCore import QSettings

    from .session.session import Session, default_config
    from .runtime.settings_store import clean_stale_temps, saved_config

    # an explicit --preset wins over the remembered settings
    config = default_config(args.preset) if args.preset else saved_config(QSettings()) or default_config()
    clean_stale_temps(QSettings())  # what a killed save left behind, before anything is opened
    session = Session(config=config)
    window = MainWindow(session)
    place_window(window, window.layout_restored)  # sized from the screen, kept inside it with its frame
    window.show()
    corpus, vocab, workspace = args.corpus, args.vocab, None
    if args.file:
        from bpe_core.formats import is_workspace

        from .main_window import is_vocabulary

        if is_workspace(args.file):
            workspace = args.file
        elif is_vocabulary(args.file):
            vocab = vocab or args.file
        else:
            corpus = corpus or args.file
    from .features.workspace import start

    offer = not (args.no_restore or args.file or args.corpus or args.vocab)
    if not start(window, workspace, offer=offer):
        session.load_corpus(corpus or str(DEFAULT_CORPUS))
    if vocab:
        _after_loading(session, lambda: window.open_vocabulary_path(vocab))
    return window, session


def _dispose(window, session) -> None:
    """Stop the workers, then delete the window's widgets while Python is still whole. Left to
    interpreter exit, Qt sends its last layout events to chart items whose Python overrides are half
    torn down, and shiboken crashes reporting their error (a segfault on exit, seen with a fresh
    profile about 2 times in 5)."""
    import shiboken6

    session.shutdown()
    if shiboken6.isValid(window):
        window.hide()
        shiboken6.delete(window)


def _after_loading(session, then) -> None:
    """Call ``then`` once the corpus has loaded (or failed to): the session runs one background
    call at a time, and starting the vocabulary's would cancel the corpus's."""
    signals = (session.corpus_loaded, session.error_raised)

    def once(*_args) -> None:
        for signal in signals:
            signal.disconnect(once)
        then()

    for signal in signals:
        signal.connect(once)


if __name__ == "__main__":
    sys.exit(main())
