"""The token biography (issue 27), rendered by ``python scripts/screenshots.py OUTDIR --only biography`` at
1280x720:

* ``token_biography.png`` — GPT-2's tokenizer.json opened (File → Open vocabulary…), View → Token biography…
  over WikiText-2's wiki.valid.raw (chosen in the file dialog: the window has no corpus file), the preset
  filter "likely residues", sorted by count at birth (the most formed first), the first row selected (its merge
  tree on the right).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt

SIZE = QSize(1280, 720)


def render_biography(sc, outdir: Path) -> list[Path]:
    from PySide6.QtWidgets import QFileDialog

    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    wiki = sc.DATA / "wikitext-2-raw" / "wiki.valid.raw"
    if not (sc.GPT2_TOKENIZER.exists() and wiki.exists()):
        print(f"token_biography.png skipped: {sc.GPT2_TOKENIZER} or {wiki} is missing")
        return []
    window = MainWindow(Session(), sc.scratch_settings())
    window.resize(SIZE)
    window.show()
    session = window.session
    window.open_vocabulary_path(str(sc.GPT2_TOKENIZER))
    sc._until(lambda: session.workbench.current is not None, 120_000)
    sc.settle(200)
    chooser = QFileDialog.getOpenFileNames
    QFileDialog.getOpenFileNames = staticmethod(lambda *a, **k: ([str(wiki)], ""))  # the user picks the file
    try:
        window.findChild(type(window.open_action), "action_token_biography").trigger()
    finally:
        QFileDialog.getOpenFileNames = chooser
    pane = window.biography_panes and next(iter(window.biography_panes))
    sc._until(lambda: pane.biography is not None and not pane.is_running, 1_800_000)
    pane.preset_box.setCurrentIndex(pane.preset_box.findData("likely residues"))
    model = pane.table_model
    pane.table.sortByColumn(model.COL_BIRTH, Qt.DescendingOrder)
    pane.table.selectRow(0)
    sc.settle(300)
    out = outdir / "token_biography.png"
    window.grab().save(str(out))
    window.close()
    return [out]
