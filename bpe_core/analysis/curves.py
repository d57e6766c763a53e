"""Curves over vocabulary size from one run: every k merges, the measures of an evaluation text encoded by
the run's tokenizer at that merge (every prefix of a merge list is a tokenizer).

The evaluation text may differ from the training text: one or more files (one per language for a parallel
text, named by the file's stem). At each sampled merge ``m`` (0, k, 2k, ..., and the last merge) a
:class:`CurveRow` holds one value per measure and group:

* group ``"all"``: every file together; ``"file:NAME"``: one file (language); ``"script:NAME"``: the words of
  one main script (:func:`~bpe_core.analysis.scripts.main_scripts`) over all files;
* measures (:data:`MEASURES`; each defined once, in :mod:`bpe_core.analysis.measures`): ``bytes_per_token``,
  ``tokens_per_100_chars``, ``tokens_per_word``, ``renyi_efficiency`` (alpha 2.5, tokenization-scorer's
  definition), ``used``, ``dead``, ``under_used`` (of the tokenizer's vocabulary at that merge); on two or
  more files also ``parity`` per file (its tokens over the reference file's, Petrov et al. 2023) and
  ``parity_gini`` (group ``"all"``, the Gini of the files' token costs).

Exact, not extrapolated: each value equals encoding the evaluation text from scratch with the tokenizer cut
at merge ``m`` (``Encoder(model, merges_limit=m)``: the test oracle), but the values are kept up to date
merge by merge from the evaluation words each merge changes, so a whole curve costs about one training run
(:mod:`bpe_core.analysis.curve_engine`).

This module is the contract the CLI (``bpe-lens-cli curves``), the app's Measures chart and the docs use.
"""
from __future__ import annotations

from typing import Mapping, Optional, Sequence

from bpe_core.analysis.curve_rows import (ALL, CSV_HEADER, MEASURE_LABELS, MEASURES, CancelFn, CurveRow, Curves,
                                          EvalText, GroupState, ProgressFn, check_texts, curves_csv, read_eval_files,
                                          sample_merges, sample_rows, vocab_size_at)

__all__ = ["ALL", "CSV_HEADER", "MEASURE_LABELS", "MEASURES", "CancelFn", "CurveRow", "Curves", "EvalText",
           "GroupState", "ProgressFn", "check_texts", "curves_csv", "read_eval_files", "sample_merges", "sample_rows",
           "vocab_size_at", "group_label", "model_curves", "run_curves"]


def group_label(group: str, files: Optional[Mapping[str, str]] = None) -> str:
    """How a reader reads a group (pickers, titles): "all files", a file by its name (``files`` maps a file's
    stem, the group's key, to its name; the stem without it), a script as "Latin script". The rows and the CSV
    keep the keys ("all", "file:eng", "script:Latin"): they are data, the CLI's curves CSV writes the same.

    >>> group_label("all"), group_label("file:eng", {"eng": "eng.txt"}), group_label("script:Latin")
    ('all files', 'eng.txt', 'Latin script')
    """
    kind, _, name = group.partition(":")
    if group == ALL or not name:
        return "all files" if group == ALL else group
    if kind == "file":
        return (files or {}).get(name, name)
    return f"{name} script" if kind == "script" else f"{name} ({kind})"


def model_curves(model, texts: Sequence[EvalText], every: int, *, name: str = "", reference: Optional[str] = None,
                 upto: Optional[int] = None, progress=None, cancel=None) -> Curves:
    """The curves of a saved tokenizer's merge prefixes 0, every, 2*every, ..., ``upto`` (all merges by
    default; the last is always sampled) on ``texts``."""
    from bpe_core.analysis.curve_engine import engine_curves  # the engine builds on curve_rows, not on this face
    return engine_curves(model, texts, every, name=name, reference=reference, upto=upto, progress=progress,
                         cancel=cancel)


def run_curves(timeline, texts: Sequence[EvalText], every: int, *, name: str = "", reference: Optional[str] = None,
               progress=None, cancel=None, parent=None) -> Curves:
    """The curves of a training run (a :class:`~bpe_core.training.timeline.Timeline`) from merge 0 to the merge
    it has reached (its known records, also past the position after an undo) on ``texts``.

    A continuation (a trainer that starts from a model: SuperBPE's stage 2 from merge ``t``) counts the
    parent's merges first. Given its ``parent`` (the parent run's Timeline), the rows before ``t`` are the
    parent's and its own merge ``j`` is at ``t + j`` (``Curves.offset`` = ``t``; the evaluation text is cut by
    the stage-2 pre-tokenizer from ``t`` on: the point at ``t`` is the continuation's start, as the Variants tab
    gives it). Without it, the rows up to the inherited merges are the
    continuation's start model's prefixes (its pre-tokenizer) and ``Curves.offset`` is their number."""
    from bpe_core.analysis.curve_engine import continuation_curves, engine_curves, run_model
    if parent is not None and getattr(timeline.config, "transition", None):
        return continuation_curves(timeline, parent, texts, every, name=name, reference=reference,
                                   progress=progress, cancel=cancel)
    model, offset = run_model(timeline)
    return engine_curves(model, texts, every, name=name, reference=reference, offset=offset, progress=progress,
                         cancel=cancel)
