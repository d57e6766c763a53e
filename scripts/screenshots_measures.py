"""The Measures chart (issue 27), rendered by ``python scripts/screenshots.py OUTDIR --only measures`` at
1280x720:

* ``measures_branches.png`` — the first 1,500 lines of WikiText-2's wiki.valid.raw with the ``superbpe``
  preset, vocabulary 1,500: Training → "Continue as SuperBPE from here" at merges 500, 800 and 1,100, each
  branch run to the vocabulary size; View → Measures… on held-out text (the next 1,500 lines of the file),
  bytes per token of the run and its three branches, the window's line at merge 1,100;
* ``measures_renyi.png`` — the same curves, Rényi efficiency (α = 2.5).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import QSize

SIZE = QSize(1280, 720)
LINES = 1500


def render_measures(sc, outdir: Path) -> list[Path]:
    from bpe_lens_app.features.measures import show_measures
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, make_config

    wiki = sc.DATA / "wikitext-2-raw" / "wiki.valid.raw"
    if not wiki.is_file():
        print(f"measures_branches.png skipped: {wiki} is missing")
        return []
    lines = wiki.read_text(encoding="utf-8").splitlines(keepends=True)
    folder = Path(tempfile.mkdtemp())
    corpus, held_out = folder / "wiki.valid.1500.raw", folder / "held-out.txt"
    corpus.write_text("".join(lines[:LINES]), encoding="utf-8")
    held_out.write_text("".join(lines[LINES:2 * LINES]), encoding="utf-8")
    window = MainWindow(Session(config=make_config("superbpe", vocab_size=1500)), sc.scratch_settings())
    window.resize(SIZE)
    window.show()
    session = window.session
    session.load_corpus(str(corpus))
    sc.wait_for(session.corpus_loaded, session.error_raised)
    feature = window.variants_feature
    for t in (500, 800, 1100):
        session.seek(t)
        sc._until(lambda: session.merge_count == t and not session.is_running, 120_000)
        window.findChild(type(window.open_action), "action_continue_superbpe").trigger()
        sc._until(lambda: not feature.calls.busy, 120_000)
    tab = feature.tab
    for run in feature.runs()[1:]:  # each branch: Run to end (the vocabulary size)
        tab.set_runs(feature.runs(), select=run.id)
        tab.run_button.click()
        sc._until(lambda: feature.runner is None, 120_000)
    session.run_to_target()
    sc._until(lambda: not session.is_running, 120_000)
    session.seek(1100)
    sc._until(lambda: session.merge_count == 1100 and not session.is_running, 120_000)
    show_measures(window, [str(held_out)], measure="bytes_per_token", every=20)
    pane = window.measures_feature.pane
    sc._until(lambda: bool(pane.curves) and pane.compute_button.isEnabled(), 1_800_000)
    sc.settle(300)
    pane.hover_at(pane.point_scene_pos(2, len(pane.lines[2].merges) * 3 // 4))  # a value said, as on hover
    sc.settle(200)
    out = [outdir / "measures_branches.png", outdir / "measures_renyi.png"]
    window.grab().save(str(out[0]))
    pane.select("renyi_efficiency")
    sc.settle(300)
    pane.hover_at(pane.point_scene_pos(0, len(pane.lines[0].merges) // 2))
    sc.settle(200)
    window.grab().save(str(out[1]))
    window.close()
    return out
