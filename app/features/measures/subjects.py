"""What the Measures chart draws a curve for: every run of the Workbench (the window's run, runs added with
another rule, SuperBPE continuations) and every branch picked by hand at a tie of the window's run.

A :class:`Subject` is taken on the GUI thread (a branch that is not current is its vocabulary, taken
there); its curves are computed on a worker by the core's :func:`~bpe_core.analysis.curves.run_curves` or
:func:`~bpe_core.analysis.curves.model_curves`. The app computes no measure itself.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from bpe_core import BPELensError
from bpe_core.types import Progress
from bpe_core.workbench import rule_name as workbench_rule_name

from ...widgets.chart_legend import in_id_order

#: the default "every k" aims at about this many points on the longest curve (between half and all of it)
POINTS = 200


@dataclass(frozen=True)
class Subject:
    """A curve to compute: a run's timeline (its reached merges) or a vocabulary (its merge prefixes)."""

    name: str
    timeline: object = None
    model: object = None
    #: the merge its curve reaches (its parent's merges included)
    reach: int = 0
    #: a continuation's parent run's timeline: the curve before the transition is the parent's (the contract)
    parent: object = None

    def curves(self, texts, every: int, *, reference: Optional[str] = None, progress=None, cancel=None):
        from bpe_core import analysis  # the face: run_curves and model_curves are the core's

        if self.timeline is not None:
            return analysis.run_curves(self.timeline, texts, every, name=self.name, reference=reference,
                                       progress=progress, cancel=cancel, parent=self.parent)
        return analysis.model_curves(self.model, texts, every, name=self.name, reference=reference,
                                 progress=progress, cancel=cancel)


def rule_name(run) -> str:
    """A run as the chart's legend names it: its id and rule, and where a continuation starts."""
    cfg = run.config
    if run.parent is not None:
        return f"{run.id}: {workbench_rule_name(cfg)} from merge {run.transition:,}"
    return f"{run.id}: {workbench_rule_name(cfg)} ({cfg.preset})"


def subjects(workbench) -> List[Subject]:
    """The runs in id order (the Variants list's and every legend's: :func:`in_id_order`), each followed by
    its continuations; the window's run with each of its tie branches. ``workbench``: the session's workbench
    adapter (``.run``, ``.bench``)."""
    current, bench = workbench.run, workbench.bench
    roots = in_id_order(r for r in bench.runs if r.parent is None)
    out: List[Subject] = []
    for root in roots:
        for run in (root, *bench.children(root.id)):
            parent = bench.run(run.parent).timeline if run.parent is not None else None
            out += _of_run(run, with_branches=run is current, parent=parent)
    return out


def _of_run(run, *, with_branches: bool, parent=None) -> List[Subject]:
    name, tl = rule_name(run), run.timeline
    reach = (run.transition or 0) + len(tl.reached_steps)
    branches = run.branches.all() if with_branches else []
    if len(branches) <= 1:
        return [Subject(name, timeline=tl, reach=reach, parent=parent)]
    out = []
    for b in branches:
        label = f"{name} · {b.name}"
        if b.id == run.branches.current_id:
            out.append(Subject(label, timeline=tl, reach=reach, parent=parent))
        else:
            model = run.branches.model_of(b.id)
            out.append(Subject(label, model=model, reach=len(b.steps)))
    return out


def reach_of(workbench) -> int:
    """The furthest merge a curve would reach now (the runs' reached merges, a continuation's parent's
    included; the tie branches' known merges), without taking any vocabulary."""
    bench, current = workbench.bench, workbench.run
    reaches = [(r.transition or 0) + len(r.timeline.reached_steps) for r in bench.runs]
    if current is not None:
        reaches += [len(b.steps) for b in current.branches.all()]
    return max(reaches, default=0)


def default_every(reach: int, points: int = POINTS) -> int:
    """A round k (1, 2, 5 × 10^n) giving at most ``points`` points over ``reach`` merges.

    >>> default_every(30_000), default_every(1_000), default_every(50)
    (200, 5, 1)
    """
    raw = max(1.0, reach / points)
    exp = 10 ** math.floor(math.log10(raw))
    return int(next(m * exp for m in (1, 2, 5, 10) if m * exp >= raw))


def compute_all(items: Sequence[Subject], paths: Sequence[str], every: int, *, progress=None, cancel=None
                ) -> Tuple:
    """Every subject's curves on the evaluation files (read here: on the worker), one after another; the
    progress counts merges over all of them."""
    from bpe_core.analysis import read_eval_files

    if every < 1:
        raise BPELensError("every must be at least 1 merge")
    texts = read_eval_files(paths)
    total = max(1, sum(max(s.reach, 1) for s in items))
    out, before = [], 0
    for s in items:
        def part(p, before=before, size=max(s.reach, 1)) -> None:
            if progress is not None:
                # the engine's setup reports "reading" / "pieces" first: the bar stays at the subject's start
                share = min(1.0, p.done / p.total) if p.total and p.unit == "merges" else 0.0
                progress(Progress(before + int(share * size), total, "merges"))
        out.append(s.curves(texts, every, progress=part, cancel=cancel))
        before += max(s.reach, 1)
    return tuple(out)
