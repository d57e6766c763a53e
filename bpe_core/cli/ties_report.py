"""``train --ties-report FILE``: training that writes down every merge whose top count was tied.

One JSON object per line, for each merge where several pairs shared the top count::

    {"merge": 2, "count": 2, "rule": "first-seen", "chosen": ["l", "o"],
     "candidates": [["l", "o"], ["o", "w"], ...], "picks": {"first-seen": [...], "hf": [...],
     "lexicographic": [...]}, "why": {"first-seen": "first seen at word 1 ('lowest'), unit 0", ...}}

``merge`` is 1-based (the merge's rank), tokens are display strings (GPT-2 glyphs for bytes),
``candidates`` are in the order the run's rule merges them. The ties are computed before each merge
only in this mode (a few heap operations per tied pair); plain training never looks.
"""
from __future__ import annotations

import json
from typing import Callable, Optional

from bpe_core.formats.atomic import atomic_output
from bpe_core.training.memory import gc_paused
from bpe_core.training.ties import find_ties
from bpe_core.types import Progress

#: the option's help (train --help)
HELP = ("write one JSON line per merge whose top count was tied: merge (1-based), count, rule, chosen, "
        "candidates, each rule's pick (first-seen, hf, lexicographic) and why; tokens as display strings")


def run_reporting_ties(trainer, path: str, *, progress: Optional[Callable[[Progress], None]] = None) -> int:
    """Train ``trainer`` to its stop rules like ``Trainer.run``, writing the tied merges to ``path``.

    Returns how many merges were tied.
    """
    tied = 0
    # a temp file renamed in at the end: a full disk or a kill never leaves half a report
    with atomic_output(path, "w", encoding="utf-8", newline="\n") as out, gc_paused():
        while True:
            ties = find_ties(trainer)
            step = trainer.step(detail=False)
            if step is None:
                break
            if ties.is_tie:
                row = ties.to_data()
                row["chosen"] = [trainer.display(step.left), trainer.display(step.right)]
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                tied += 1
            if progress is not None and (trainer.merge_count & 63) == 0:
                progress(Progress(trainer.merge_count, 0, "merges"))
    if progress is not None:
        progress(Progress(trainer.merge_count, trainer.merge_count, "merges"))
    return tied
