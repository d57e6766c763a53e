"""Variants compared side by side: for each open run (a branch of another variant included) at its
current merge, the figures a reader compares - bytes per token, tokens per word by script, vocabulary used
and dead on the run's corpus, tokens removed by a training rule, the cost per language - and its curve of
bytes per token over the merge index.

Bytes are the UTF-8 bytes of the run's words as the run read its corpus (a reading that adds a space
before each piece, as parity-aware BPE's reference reading does, counts those spaces too: compare runs that
read the text alike). Everything is read from the run's own records: its words and their segmentations at the position (what
the run's rules made of the corpus: PickyBPE's removals and SuperBPE's superwords included), its merges'
statistics (``MergeStep.stats.total_tokens`` after each merge: the curve, without a recount), its
removals. A continuation (SuperBPE's stage 2 from merge t) counts its merge index from the parent's:
``offset`` is t and ``base_curve`` the parent's ``known_curve`` up to t (their shared stage 1: from the
parent's records, exact, also where the parent has been undone below t).

The cost per language is a parity-aware run's own (``language_costs``), or, for any run on a parallel
corpus (one file per language), the tokens each language's file takes (:func:`file_costs`).

>>> from bpe_core.training.timeline import Timeline
>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.presets import make_config
>>> tl = Timeline(Trainer({" low": 5, " lower": 2, " Москва": 1}, make_config("gpt2")))
>>> _ = tl.step(3)
>>> f = variant_figures("plain", tl)
>>> f.merge, round(f.bytes_per_token, 3), f.tokens_per_word, (f.used, f.dead, f.removed)
(3, 1.875, {'Latin': 1.571, 'Cyrillic': 13.0}, (12, 248, 0))
>>> [(k, round(v, 3)) for k, v in f.curve]
[(0, 1.0), (1, 1.184), (2, 1.452), (3, 1.875)]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from bpe_core.analysis.measures import gini
from bpe_core.analysis.scripts import COMMON, main_scripts, word_script

Point = Tuple[int, float]


@dataclass(frozen=True)
class VariantFigures:
    """One run's figures at its merge ``merge`` (a continuation's merge counts its parent's first)."""

    name: str
    merge: int
    bytes_per_token: float
    #: tokens per word for each main script of the corpus (letters, at least 1% of the words), largest first;
    #: a unit spanning whitespace (SuperBPE's superword units) counts as its whitespace-separated words
    tokens_per_word: Dict[str, float]
    vocab_size: int
    #: tokens of the vocabulary the corpus's segmentation uses; ``dead``: the others (specials included)
    used: int
    dead: int
    #: tokens a training rule removed so far (PickyBPE), each removal counted once
    removed: int
    #: language -> tokens of that language's text (empty: not a parallel corpus)
    language_costs: Dict[str, int] = field(default_factory=dict)
    #: (merge index, bytes per token) from merge 0 (the parent's, for a continuation) to ``merge``
    curve: Tuple[Point, ...] = ()
    #: the run's words span whitespace (SuperBPE's stage-2 units), so its tokens per word are counted over
    #: other words than a run cut into pieces (:func:`tokens_per_word_note`)
    units_span_words: bool = False
    #: the curve over every merge the run knows (undone ones too, from their records): what a branch
    #: starting past ``merge`` shares with the run (its ``base_curve``)
    known_curve: Tuple[Point, ...] = ()

    @property
    def cost_gini(self) -> Optional[float]:
        """The Gini coefficient of the costs per language (0: every language costs the same; parity-aware
        BPE's paper reports it), None for fewer than two languages.

        >>> VariantFigures("x", 0, 1.0, {}, 1, 1, 0, 0, {"a": 10, "b": 10}).cost_gini
        0.0
        >>> round(VariantFigures("x", 0, 1.0, {}, 1, 1, 0, 0, {"a": 10, "b": 30}).cost_gini, 3)
        0.25
        """
        costs = list(self.language_costs.values())
        if len(costs) < 2 or not sum(costs):
            return None
        return gini(costs)  # the one home of the formula (analysis.measures)


def variant_figures(name: str, timeline: Any, *, offset: int = 0, base_curve: Sequence[Point] = (),
                    language_costs: Optional[Mapping[str, int]] = None,
                    scripts: Optional[Sequence[str]] = None) -> VariantFigures:
    """``timeline``'s figures at its position (any object with the Timeline's ``words``, ``freqs``,
    ``segmentation(i)``, ``merge_count``, ``vocab_size``, ``history`` and ``initial_stats``).

    ``offset``: the merge index of its merge 0 (a continuation's transition); ``base_curve``: the curve
    before it (the parent's up to ``offset``); ``language_costs``: the cost per language when known;
    ``scripts``: each word's script found already (``words_scripts``: a run's words never change)."""
    words, freqs = timeline.words, timeline.freqs
    sizes = [len(w.encode("utf-8")) if isinstance(w, str) else len(w) for w in words]
    total_bytes = sum(f * b for f, b in zip(freqs, sizes))
    if scripts is None:
        scripts = _scripts_of(words)
    main = main_scripts(scripts, freqs)
    tokens: Counter = Counter()
    occurrences: Counter = Counter()
    used = set()
    total_tokens = 0
    for i, (f, s) in enumerate(zip(freqs, scripts)):
        seg = timeline.segmentation(i)
        used.update(seg)
        total_tokens += f * len(seg)
        tokens[s] += f * len(seg)
        occurrences[s] += f * max(1, len(words[i].split())) if isinstance(words[i], str) else f
    history = timeline.history
    curve = [p for p in base_curve if p[0] < offset]
    start = getattr(timeline, "initial_stats", None)
    if start is not None and start.total_tokens:
        curve.append((offset, total_bytes / start.total_tokens))
    curve += [(offset + s.rank, total_bytes / s.stats.total_tokens) for s in history if s.stats.total_tokens]
    known = getattr(timeline, "steps", history)[len(history):]  # the merges undone, still known
    known_curve = curve + [(offset + s.rank, total_bytes / s.stats.total_tokens) for s in known
                           if s.stats.total_tokens]
    return VariantFigures(
        name, offset + timeline.merge_count, total_bytes / total_tokens if total_tokens else 0.0,
        {s: round(tokens[s] / occurrences[s], 3) for s in main}, timeline.vocab_size, len(used),
        max(0, timeline.vocab_size - len(used)), sum(len(getattr(s, "removals", ())) for s in history),
        dict(language_costs or {}), tuple(curve),
        any(isinstance(w, str) and len(w.split()) > 1 for w in words), tuple(known_curve))


def tokens_per_word_note(figures: Sequence[VariantFigures]) -> str:
    """Why tokens per word differs between runs whose words are cut differently (empty when they are cut
    alike). A SuperBPE branch with no merges of its own and its parent at the same merge encode the same
    text, but the branch's words are its units: punctuation and digits inside a unit count with the unit's
    script, where a run cut into pieces keeps them apart in no script's row; and the stage-2 replay drops
    the parent's merges the new pre-tokenizer cannot make (as the reference does). Bytes per token compares them."""
    if len({f.units_span_words for f in figures}) < 2:
        return ""
    return ("Tokens / word differ by definition between runs whose units span whitespace (SuperBPE: punctuation "
            "and digits inside a unit count with its script; its replay drops the parent's merges stage 2 cannot "
            "make) and runs cut into pieces (punctuation and digits apart, in no script's row): compare bytes per "
            "token across them.")


def _scripts_of(words: Sequence[Any]) -> list:
    """Each word's script (a word of bytes, which has no letters to vote: ``Common``)."""
    return [word_script(w) if isinstance(w, str) else COMMON for w in words]


def file_costs(encode: Callable[[str], Sequence[Any]], files: Mapping[str, str]) -> Dict[str, int]:
    """Tokens each language's text takes: ``files`` maps a language to its file (UTF-8), ``encode`` is a
    model's encoder (``Encoder(model).encode_ids`` or a ``tokenizers`` tokenizer's ``encode(...).ids``)."""
    out = {}
    for language, path in files.items():
        with open(path, encoding="utf-8", newline="") as fh:
            out[language] = len(encode(fh.read()))
    return out


def run_language_costs(timeline: Any, paths: Sequence[str], encode: Callable[[str], Sequence[Any]]) -> Dict[str, int]:
    """A run's cost per language at its position: a parity-aware trainer's own (``language_costs(k)``),
    else the tokens of each language's file when the corpus is one file per language, else nothing."""
    trainer = getattr(timeline, "trainer", None)
    if callable(getattr(trainer, "language_costs", None)):
        costs = trainer.language_costs(timeline.merge_count)
        names = list(getattr(trainer, "languages", None) or (str(i) for i in range(len(costs))))
        return dict(zip(names, costs))
    files = language_files(paths)
    return file_costs(encode, files) if files else {}


def language_files(paths: Sequence[str]) -> Dict[str, str]:
    """The corpus's files by language when it is a parallel corpus: several files, each named by its
    language (the file's stem, e.g. ``eng.txt``); empty for one file.

    >>> language_files(["/d/eng.txt", "/d/deu.txt"]), language_files(["/d/wiki.txt"])
    ({'eng': '/d/eng.txt', 'deu': '/d/deu.txt'}, {})
    """
    import os

    if len(paths) < 2:
        return {}
    return {os.path.splitext(os.path.basename(p))[0]: p for p in paths}
