"""PickyBPE's removals (issue 26), rendered by ``python scripts/screenshots.py OUTDIR --only picky``:

* ``picky_removals.png`` — the built-in corpus with the ``gpt2`` preset and the training rule PickyBPE τ 0.6
  (Training → Settings), 60 merges: the merges table's "removed" column (✂ token → its split, IoS) with the
  removed tokens struck through, and why-this-split on a word a removal split (its history lists the removal).
"""
from __future__ import annotations

from pathlib import Path

MERGES = 60


def render_picky(sc, outdir: Path) -> list[Path]:
    from bpe_lens_app.__main__ import DEFAULT_CORPUS
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, make_config
    from bpe_core.analysis import removals_in_word

    session = Session(config=make_config("gpt2", variant="picky", ios_threshold=0.6))
    window = MainWindow(session, sc.scratch_settings())
    window.resize(sc.SIZE)
    window.show()
    session.load_corpus(str(DEFAULT_CORPUS))
    sc.wait_for(session.corpus_loaded, session.error_raised)
    session.seek(MERGES)
    sc._until(lambda: session.merge_count == MERGES and not session.is_running, 120_000)
    word = _split_word(session, removals_in_word)
    words = window.words
    row = words.model.index(words.model.row_of(word), 0)
    words.table.setCurrentIndex(row)
    words.table.clicked.emit(row)  # what a click on the row does
    window.resizeDocks([window.explain.dock], [470], sc.Qt.Horizontal)
    from PySide6.QtWidgets import QAbstractItemView, QSplitter

    bottom = window.findChild(QSplitter, "splitter_bottom")
    bottom.setSizes([150, 230, 1000])  # the merges table wide enough for its "removed" column
    window.findChild(QSplitter, "splitter_body").setSizes([330, 470])  # and tall enough for two removals
    last = max(r for r, step in enumerate(session.history) if step.removals)
    window.merges.view.scrollTo(window.merges.model.index(last + 1, 0), QAbstractItemView.PositionAtBottom)
    sc.settle(150)
    out = outdir / "picky_removals.png"
    window.grab().save(str(out))
    window.close()
    return [out]


def _split_word(session, removals_in_word) -> int:
    """The most frequent word whose history has a removal (else the one with the longest history)."""
    def removals(i: int) -> int:
        history, n = session.word_history(i), 0
        for (_, before), (step, after) in zip(history, history[1:]):
            n += len(removals_in_word(step, before, after))
        return n

    order = sorted(range(len(session.words)), key=lambda i: -session.freqs[i])[:400]
    split = [i for i in order if removals(i)]
    return split[0] if split else max(order, key=lambda i: len(session.word_history(i)))
