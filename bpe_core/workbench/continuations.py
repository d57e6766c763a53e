"""A run that continues another run from one of its merges: SuperBPE's stage 2 from merge ``t`` of a
plain run (its stage 1), shown as a branch of that run at ``t``.

The new run has its own trainer (stage 2 counts the corpus again with its own pre-tokenizer), so it is a
:class:`~bpe_core.workbench.runs.TrainingRun` of its own; what ties it to the run it came from is its
``parent`` (that run's id) and its ``transition`` (the parent's merge it starts from: its first
``transition`` merges are the parent's, inherited, and undo stops there). Several transition points
compared are several such runs of one parent: they share its stage 1.

How a variant continues is chosen by the new config's ``variant`` (:data:`CONTINUATIONS`); a variant
without an entry continues as the Trainer continues any vocabulary (``Trainer(counts, config,
start=model)``), so a plain continuation of a plain run retrains exactly the parent's later merges:

>>> import os, tempfile
>>> from bpe_core.presets import make_config
>>> from bpe_core.workbench.runs import TrainingRun
>>> from bpe_core.workbench.records import RunCorpus
>>> path = os.path.join(tempfile.mkdtemp(), "c.txt")
>>> _ = open(path, "w").write("low lower lowest newest widest\\n" * 3)
>>> parent = TrainingRun.open("r1", RunCorpus((path,)), make_config("char-whitespace"))
>>> _ = parent.timeline.step(6)
>>> child = continue_run("r2", parent, 3)
>>> (child.parent, child.transition), [s.new_token for s in child.timeline.step(3)]
(('r1', 3), ['est', 'est</w>', 'low</w>'])
>>> [s.new_token for s in parent.timeline.history[3:]]
['est', 'est</w>', 'low</w>']
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, Optional

from bpe_core.model import BPEModel
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, Progress, TrainerConfig
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]
#: variant -> (paths, config, start, progress=, cancel=) -> Trainer continuing ``start`` on the corpus
TrainerMaker = Callable[..., Trainer]


def _superbpe(paths, config: TrainerConfig, start: BPEModel, *, progress: ProgressFn = None,
              cancel: CancelFn = None) -> Trainer:
    from bpe_core.training.superbpe import superbpe_trainer  # helper S's stage 2

    return superbpe_trainer(list(paths), config, start, progress=progress, cancel=cancel)


def _plain(paths, config: TrainerConfig, start: BPEModel, *, progress: ProgressFn = None,
           cancel: CancelFn = None, errors: str = "strict") -> Trainer:
    from pathlib import Path

    from bpe_core.corpus.files import count_words_in_files

    counts = count_words_in_files([Path(p) for p in paths], config, progress=progress, cancel=cancel, errors=errors)
    return Trainer(counts, config, start=start)


#: how each variant continues a run (the others: :func:`_plain`)
CONTINUATIONS: Dict[str, TrainerMaker] = {"superbpe": _superbpe}


def superbpe_config(parent: TrainerConfig, transition: int) -> TrainerConfig:
    """The settings of SuperBPE's stage 2 continuing a run with ``parent``'s settings from merge
    ``transition`` (the vocabulary size and the other stop rules stay the parent's)."""
    return replace(parent, variant="superbpe", transition=transition)


def start_model(parent: TrainingRun, k: int) -> BPEModel:
    """The parent's vocabulary at its merge ``k`` (ids unchanged). Cheap when the parent stands at ``k`` or
    beyond; else its timeline goes there and back (a free timeline: not while a worker moves it)."""
    tl = parent.timeline
    if not 0 <= k <= len(tl.steps):
        raise BPELensError(f"run {parent.id} has no merge {k:,} (it knows {len(tl.steps):,})")
    if tl.merge_count >= k:
        return tl.model().truncated(k)
    here = tl.merge_count
    tl.seek(k)
    try:
        return tl.model()
    finally:
        tl.seek(here)


def left_out(run: TrainingRun) -> int:
    """How many of its parent's first ``transition`` merges a continuation does not hold (0 for a run that
    continues none). SuperBPE's stage 2 leaves out, as the authors' trainer does, an inherited merge whose
    pair never forms in its units (digits stand alone there, so `` 1`` never forms). The branch's merge
    index counts the parent's ``transition`` merges and then its own, so it runs this many past the merges
    its vocabulary holds: a branch stopping at the run's vocabulary size stops this many merges later."""
    if run.parent is None:
        return 0
    return max(0, (run.transition or 0) - len(run.timeline.base_model.merges))


def continuation_timeline(corpus: RunCorpus, config: TrainerConfig, start: BPEModel, *,
                          progress: ProgressFn = None, cancel: CancelFn = None) -> Timeline:
    """Count ``corpus`` for ``config``'s variant and continue ``start`` on it (slow: a worker's job)."""
    make = CONTINUATIONS.get(config.variant)
    if make is None:
        trainer = _plain(corpus.paths, config, start, progress=progress, cancel=cancel, errors=corpus.decode_errors)
    else:
        trainer = make(corpus.paths, config, start, progress=progress, cancel=cancel)
    return Timeline(trainer)


def continue_run(run_id: str, parent: TrainingRun, k: int, config: Optional[TrainerConfig] = None, *,
                 start: Optional[BPEModel] = None, progress: ProgressFn = None,
                 cancel: CancelFn = None) -> TrainingRun:
    """A new run continuing ``parent`` from its merge ``k`` on the parent's corpus (``config``: the new
    run's settings, by default the parent's; ``start``: the parent's model at ``k`` taken already, e.g. on
    the GUI thread before a worker counts). Not opened: :meth:`Workbench.add_run` opens it."""
    model = start if start is not None else start_model(parent, k)
    timeline = continuation_timeline(parent.corpus, config or parent.config, model, progress=progress,
                                     cancel=cancel)
    return TrainingRun(run_id, parent.corpus, timeline, parent.refs, parent=parent.id, transition=k)
