"""Variants compared side by side: for each open run (a branch of another variant included) at its
current merge, the figures a reader compares - bytes per token, tokens per word by script, vocabulary used
and dead on the run's corpus, tokens removed by a training rule, the cost per language - and its curve of
bytes per token over the merge index.

Bytes per token is the Measures chart's too: the UTF-8 bytes of the run's text as its corpus reader reads it (a
CRLF line's "\\r" and a BOM kept for a preset that reads files as tokenizers does, cut for one that reads text)
over the run's tokens; a preset that drops whitespace does not leave the spaces out of the bytes (dividing the
bytes of its pieces read 1.49 where the chart read 1.79). Without text (a word-count table) the bytes are the
pieces'. Everything is read from the run's own records: its words and their segmentations at the position (what
the run's rules made of the corpus: PickyBPE's removals and SuperBPE's superwords included), its merges'
statistics (``MergeStep.stats.total_tokens`` after each merge: the curve, without a recount), its
removals. A continuation (SuperBPE's stage 2 from merge t) counts its merge index from the parent's:
``offset`` is t and ``base_curve`` the parent's ``known_curve`` up to t (their shared stage 1: from the
parent's records, exact, also where the parent has been undone below t).

Tokens per word by script is the Measures chart's (:mod:`bpe_core.analysis.curves`), so the two views give
one number under one label: the tokens of the pieces of a script over the whitespace-separated words of the
run's text in that script (``str.split()``, :func:`~bpe_core.analysis.scripts.text_words`), the groups being
the main scripts of the pieces weighed by characters (:func:`~bpe_core.analysis.scripts.piece_main_scripts`).
For a run at merge m it equals the Measures curve's "tokens per word" of that script at m, the run's corpus
as the evaluation text, for plain BPE, PickyBPE, parity-aware and SuperBPE runs alike
(tests/core/test_variant_tokens_per_word.py), so a SuperBPE branch and a plain run divide by the same words
(what still differs: a SuperBPE unit's punctuation and digits count with its script, where a plain run's are
in no script's row, in the Measures chart too; :func:`tokens_per_word_note` says it). A piece is not a word:
GPT-2's pre-tokenizer cuts "don't" in two and a Tamil word at each combining mark (counting pieces as words
read Tamil at 1.34 tokens per word at merge 150 of the parallel example, the Measures chart 9.29).

Why the text is read. A run keeps its distinct pieces with their counts, not their order, so its pieces
cannot tell where a whitespace word starts (a piece without a leading space may start a line or follow
another piece of the same word); the counting records no words, and the Measures engine counts them from
the evaluation text itself. So the run's text is read once per run (:func:`corpus_words`: each file's lines
as the corpus readers give them, a languages folder's training files), its words counted by script, and kept
with the words' scripts and the groups (:class:`WordGroups`): none of them changes while the run steps, so a
step costs the segmentations only, as before. A word-count table has no text: its runs give no tokens per
word, and :func:`tokens_per_word_note` says so.

What can still differ from a Measures curve is the text's cutting, not the definition: a run counts its
corpus line by line (as the references' trainers do), the Measures chart encodes each file whole. Plain and
PickyBPE pieces never span a line break, so both agree; SuperBPE's stage-2 units span whitespace, and a whole
file's units may span line breaks that no counted unit spans (on the test's run, Latin 4.54 against 4.52
over whole files; equal over the corpus's lines). At its transition merge t a branch's figures are its own
(its units, its replayed merges), and so is the Measures chart's point of the branch at t
(:func:`~bpe_core.analysis.curve_engine.continuation_curves`): one figure per run and merge.

The cost per language is a parity-aware run's own (``language_costs``), or, for any run on a parallel
corpus (one file per language), the tokens each language's file takes (:func:`file_costs`).

>>> from bpe_core.training.timeline import Timeline
>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.presets import make_config
>>> from bpe_core.analysis.scripts import text_words
>>> tl = Timeline(Trainer({" low": 5, " lower": 2, " Москва": 1}, make_config("gpt2")))
>>> _ = tl.step(3)
>>> groups = word_groups(tl, text_words([" low" * 5 + " lower" * 2 + " Москва"]))
>>> f = variant_figures("plain", tl, groups=groups)
>>> f.merge, round(f.bytes_per_token, 3), f.tokens_per_word, f.words, (f.used, f.dead, f.removed)
(3, 1.875, {'Latin': 1.5714285714285714, 'Cyrillic': 13.0}, {'Latin': 7, 'Cyrillic': 1}, (12, 248, 0))
>>> [(k, round(v, 3)) for k, v in f.curve]
[(0, 1.0), (1, 1.184), (2, 1.452), (3, 1.875)]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from bpe_core.analysis.measures import TextSize, gini, tokens_per_word
from bpe_core.analysis.scripts import COMMON, piece_main_scripts, text_words, word_script

Point = Tuple[int, float]


@dataclass(frozen=True)
class VariantFigures:
    """One run's figures at its merge ``merge`` (a continuation's merge counts its parent's first)."""

    name: str
    merge: int
    bytes_per_token: float
    #: tokens per word of each script group (the Measures chart's: the group's tokens over the text's
    #: whitespace-separated words in that script), the groups largest (by characters) first
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
    #: the curve over every merge the run knows (undone ones too, from their records): what a branch
    #: starting past ``merge`` shares with the run (its ``base_curve``)
    known_curve: Tuple[Point, ...] = ()
    #: the whitespace-separated words of the run's text in each script group (what tokens per word divides
    #: by); None when the run has no text to count them in (a word-count table)
    words: Optional[Dict[str, int]] = None
    #: the run's units span whitespace (SuperBPE's stage-2 units): punctuation and digits inside a unit count
    #: with the unit's script (:func:`tokens_per_word_note`)
    units_span_words: bool = False

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


@dataclass(frozen=True)
class WordGroups:
    """What a run's tokens per word by script is counted over, found once per run (its words and its text
    never change while it steps): each word's script, the script groups and the text's words per script."""

    #: the script of each of the run's words, in the run's order (``Common``: a word of bytes)
    scripts: Tuple[str, ...]
    #: the script groups: the main scripts of the words weighed by characters, largest first
    groups: Tuple[str, ...]
    #: the whitespace-separated words of the run's text by script; None: the run has no text (a word table)
    words: Optional[Mapping[str, int]]
    #: the UTF-8 bytes of the run's text as its corpus reader reads it; None: no text (a word table)
    text_bytes: Optional[int] = None


def word_groups(timeline: Any, words: Optional[Mapping[str, int]]) -> WordGroups:
    """The :class:`WordGroups` of ``timeline``'s words, ``words`` being its text's words by script
    (:func:`~bpe_core.analysis.scripts.text_words`, :func:`corpus_words`)."""
    pieces = timeline.words
    scripts = tuple(word_script(w) if isinstance(w, str) else COMMON for w in pieces)
    from bpe_core.corpus.counting import reads_as_tokenizers
    read = getattr(words, "bytes_read", None)  # (:class:`TextCounts`) the text's bytes by reading rule
    config = getattr(timeline, "config", None)
    rule = "tokenizers" if config is not None and reads_as_tokenizers(config) else "text"
    return WordGroups(scripts, tuple(piece_main_scripts(pieces, timeline.freqs, scripts)),
                      None if words is None else dict(words), None if read is None else read[rule])


def run_word_groups(timeline: Any, paths: Sequence[str], decode_errors: str = "strict", *,
                    cancel: Optional[Callable[[], bool]] = None) -> WordGroups:
    """The :class:`WordGroups` of a run counted from ``paths`` (its corpus: reads its text once)."""
    return word_groups(timeline, corpus_words(paths, decode_errors, cancel=cancel))


class TextCounts(Counter):
    """A text's words by script (a Counter, :func:`~bpe_core.analysis.scripts.text_words`) and its UTF-8 bytes
    as each reading rule reads it (``bytes_read["text"]``: the BOM cut, CRLF as LF; ``["tokenizers"]``: as the
    file holds them)."""

    bytes_read: Dict[str, int] = {}


def corpus_words(paths: Sequence[str], decode_errors: str = "strict", *,
                 cancel: Optional[Callable[[], bool]] = None) -> Optional[TextCounts]:
    """The whitespace-separated words of a run's corpus by script: each file's lines as the corpus readers
    read them (gzip, a BOM, ``decode_errors``), a folder's training files (a parity-aware run's languages,
    not its ``dev`` texts); None when the corpus is a word-count table (no text). With them, the text's bytes
    under either reading rule (:class:`TextCounts`: one pass reads both)."""
    import os

    from bpe_core.corpus.counting import iter_lines
    from bpe_core.corpus.languages import language_files as folder_languages
    from bpe_core.corpus.table import is_word_table

    files = []
    for p in paths:
        if os.path.isdir(p):
            _names, train, _dev = folder_languages(p)
            files += [str(train[n]) for n in sorted(train)]
        elif is_word_table(p):
            return None
        else:
            files.append(p)
    size = {"tokenizers": 0, "text": 0}

    def lines():
        for p in files:
            first = True
            for line in iter_lines(p, errors=decode_errors, cancel=cancel, as_tokenizers=True):
                n = len(line.encode("utf-8", "surrogatepass"))
                size["tokenizers"] += n
                # read as text: the BOM cut, a CRLF one byte shorter (a lone CR becomes an LF: as long)
                size["text"] += n - (3 if first and line.startswith("\ufeff") else 0) - line.count("\r\n")
                first = False
                yield line
    out = TextCounts(text_words(lines()))
    out.bytes_read = dict(size)
    return out


def variant_figures(name: str, timeline: Any, *, offset: int = 0, base_curve: Sequence[Point] = (),
                    language_costs: Optional[Mapping[str, int]] = None,
                    groups: Optional[WordGroups] = None) -> VariantFigures:
    """``timeline``'s figures at its position (any object with the Timeline's ``words``, ``freqs``,
    ``segmentation(i)``, ``merge_count``, ``vocab_size``, ``history`` and ``initial_stats``).

    ``offset``: the merge index of its merge 0 (a continuation's transition); ``base_curve``: the curve
    before it (the parent's up to ``offset``); ``language_costs``: the cost per language when known;
    ``groups``: what tokens per word is counted over (:func:`run_word_groups`, once per run; without it,
    no text is known and tokens per word is not given)."""
    words, freqs = timeline.words, timeline.freqs
    if groups is None:
        groups = WordGroups((COMMON,) * len(words), (), None)
    total_bytes = groups.text_bytes
    if total_bytes is None:  # no text: the pieces' bytes
        sizes = [len(w.encode("utf-8")) if isinstance(w, str) else len(w) for w in words]
        total_bytes = sum(f * b for f, b in zip(freqs, sizes))
    tokens: Counter = Counter()
    used = set()
    total_tokens = 0
    for i, (f, s) in enumerate(zip(freqs, groups.scripts)):
        seg = timeline.segmentation(i)
        used.update(seg)
        total_tokens += f * len(seg)
        tokens[s] += f * len(seg)
    history = timeline.history
    curve = [p for p in base_curve if p[0] < offset]
    start = getattr(timeline, "initial_stats", None)
    if start is not None and start.total_tokens:
        curve.append((offset, total_bytes / start.total_tokens))
    curve += [(offset + s.rank, total_bytes / s.stats.total_tokens) for s in history if s.stats.total_tokens]
    known = getattr(timeline, "steps", history)[len(history):]  # the merges undone, still known
    known_curve = curve + [(offset + s.rank, total_bytes / s.stats.total_tokens) for s in known
                           if s.stats.total_tokens]
    text = groups.words
    counted = {} if text is None else {s: text.get(s, 0) for s in groups.groups if text.get(s, 0)}
    return VariantFigures(
        name, offset + timeline.merge_count, total_bytes / total_tokens if total_tokens else 0.0,
        {s: tokens_per_word({0: tokens[s]}, TextSize(0, 0, n)) for s, n in counted.items()},  # the measure's home
        timeline.vocab_size, len(used), max(0, timeline.vocab_size - len(used)),
        sum(len(getattr(s, "removals", ())) for s in history), dict(language_costs or {}), tuple(curve),
        tuple(known_curve), None if text is None else counted,
        any(isinstance(w, str) and len(w.split()) > 1 for w in words))


def tokens_per_word_note(figures: Sequence[VariantFigures]) -> str:
    """What a reader should know before comparing the runs' tokens per word (empty when nothing). Every run
    divides by the same words, its text's (the Measures chart's definition), but a run whose units span
    whitespace (SuperBPE) counts the punctuation and digits inside a unit with the unit's script, where a run
    cut into pieces counts them in no script's row (the Measures chart's script curves do the same); and a
    run without its text (a word-count table, files gone) has no words to divide by."""
    notes = []
    if len({f.units_span_words for f in figures}) > 1:
        notes.append("Tokens / word divides by the same words for every run (the text's, as the Measures chart "
                     "counts them), but a SuperBPE unit's punctuation and digits count with its script, where a run "
                     "cut into pieces counts them in no script's row: bytes per token compares them whole.")
    missing = [f.name for f in figures if f.words is None]
    if missing:
        notes.append(f"Tokens / word is not given for {', '.join(missing)}: no text to count whitespace-separated "
                     "words in (a word-count table, or files that can no longer be read).")
    return " ".join(notes)


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
