"""``python -m bpe_lens_app`` / ``bpe-lens``: open the main window on a corpus (the built-in one by default)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "resources" / "corpus" / "default.txt"


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bpe-lens", description="Watch Byte-Pair Encoding learn, merge by merge.")
    parser.add_argument("--corpus", metavar="PATH", help=f"text file to train on (default: {DEFAULT_CORPUS.name})")
    parser.add_argument("--preset", metavar="NAME", help="training preset (see Train → settings)")
    parser.add_argument("--vocab", metavar="PATH", help="also open a saved vocabulary in the inspector")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("BPE Lens")
    app.setApplicationName("bpe-lens")

    from bpe_core.types import BPELensError

    from .theme import apply_app_theme, configure_pyqtgraph

    configure_pyqtgraph()  # once, before any plot exists
    apply_app_theme(app)
    from .main_window import MainWindow
    from .session import Session, default_config

    try:
        config = default_config(args.preset)
    except BPELensError as exc:
        print(f"bpe-lens: {exc}", file=sys.stderr)
        return 2
    session = Session(config=config)
    window = MainWindow(session)
    window.resize(1440, 900)
    window.show()
    session.load_corpus(args.corpus or str(DEFAULT_CORPUS))
    if args.vocab:
        session.open_vocabulary(args.vocab)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
