"""The Variant Lab's views (issue 26), rendered by ``python scripts/screenshots.py OUTDIR --only variants``:

* ``superbpe_branches.png`` — the first 1,500 lines of WikiText-2's wiki.valid.raw with the ``superbpe``
  preset (the authors' stage 1), vocabulary 1,500: Training → "Continue as SuperBPE from here" at merges 500,
  800 and 1,100, each branch run to the vocabulary size; the Variants tab shows the three branches under the
  run, the t = 800 branch's superword merges, one row per run and the four curves of bytes per token;
* ``parity_vs_plain.png`` — six languages of tests/data/parallel (English, Russian, Greek, Hindi, Korean,
  Chinese), 800 merges each: plain BPE (the window's run, all files as one corpus; cost = tokens of each
  language's file) against parity-aware BPE (bpe_core.variants.parity_run, the preset's reading; cost =
  the reference's own measure on its dev text, here the training text itself), one row each with the tokens
  per language. The parity run is opened on the Workbench by this script (the app opens one in place of
  the window's run, through the training settings).
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

LANGS = ("eng", "rus", "ell", "hin", "kor", "zho")


def _window(sc, config):
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session

    window = MainWindow(Session(config=config), sc.scratch_settings())
    window.resize(sc.SIZE)
    window.show()
    return window


def _seek(sc, session, k: int) -> None:
    session.seek(k)
    sc._until(lambda: session.merge_count == k and not session.is_running, 120_000)


def render_superbpe(sc, outdir: Path) -> list[Path]:
    from bpe_lens_app.session.session import make_config

    wiki = sc.DATA / "wikitext-2-raw" / "wiki.valid.raw"
    if not wiki.is_file():
        print(f"superbpe_branches.png skipped: {wiki} is missing")
        return []
    corpus = Path(tempfile.mkdtemp()) / "wiki.valid.1500.raw"
    corpus.write_text("".join(wiki.read_text(encoding="utf-8").splitlines(keepends=True)[:1500]), encoding="utf-8")
    window = _window(sc, make_config("superbpe", vocab_size=1500))
    session = window.session
    session.load_corpus(str(corpus))
    sc.wait_for(session.corpus_loaded, session.error_raised)
    feature = window.variants_feature
    for t in (500, 800, 1100):
        _seek(sc, session, t)
        window.findChild(type(window.open_action), "action_continue_superbpe").trigger()
        sc._until(lambda: not feature.calls.busy, 120_000)
    tab = feature.tab
    for run in feature.runs()[1:]:  # each branch: Run to end (the vocabulary size)
        tab.set_runs(feature.runs(), select=run.id)
        tab.run_button.click()
        sc._until(lambda: feature.runner is None, 120_000)
    session.run_to_target()
    sc._until(lambda: not session.is_running, 120_000)
    tab.set_runs(feature.runs(), select="r3")
    sc.settle(300)
    out = outdir / "superbpe_branches.png"
    window.grab().save(str(out))
    window.close()
    return [out]


def render_parity(sc, outdir: Path) -> list[Path]:
    from bpe_core import TrainingRun
    from bpe_core.workbench import RunCorpus
    from bpe_lens_app.session.session import make_config

    try:
        from bpe_core.variants.parity_run import open_parity_timeline
    except ImportError:
        print("parity_vs_plain.png skipped: bpe_core.variants.parity_run is missing")
        return []
    folder = Path(tempfile.mkdtemp()) / "parallel"
    (folder / "dev").mkdir(parents=True)
    parallel = sc.ROOT / "tests" / "data" / "parallel"
    for lang in LANGS:  # its dev text is the training text: both runs' costs are on the same text
        shutil.copy(parallel / f"{lang}.txt", folder / f"{lang}.txt")
        shutil.copy(parallel / f"{lang}.txt", folder / "dev" / f"{lang}.txt")
    files = [str(folder / f"{lang}.txt") for lang in LANGS]
    window = _window(sc, make_config("gpt2", num_merges=800))
    session = window.session
    session.load_corpus(files)
    sc.wait_for(session.corpus_loaded, session.error_raised)
    _seek(sc, session, 800)
    bench = session.workbench.bench
    # the preset's reading (gpt2's words and bytes, the reference's merge rule): the same text as the plain run's,
    # so bytes per token compare (the reference's own reading adds a space before every piece)
    timeline = open_parity_timeline(str(folder), make_config("gpt2", variant="parity", num_merges=800),
                                    reading="preset")
    timeline.step(800)
    bench.add_run(TrainingRun(bench.new_run_id(), RunCorpus(tuple(files)), timeline), select=False)
    window.findChild(type(window.open_action), "action_compare_variants").trigger()
    sc.settle(300)
    out = outdir / "parity_vs_plain.png"
    window.grab().save(str(out))
    window.close()
    return [out]


def render_variants(sc, outdir: Path) -> list[Path]:
    """Both views (``sc``: the screenshots module, for its helpers and paths)."""
    return render_superbpe(sc, outdir) + render_parity(sc, outdir)
