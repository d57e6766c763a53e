"""Parity-aware BPE as a run: :class:`ParityTrainer` has a :class:`~bpe_core.training.trainer.Trainer`'s face
(step, undo, seek, records, the model), so a :class:`~bpe_core.training.timeline.Timeline` wraps it as it
wraps a Trainer. The algorithm itself is :class:`~bpe_core.variants.parity.ParityBPE` (one home); this
module maps its glyph-string symbols to token ids, its training rows to a word table, and its steps to
:class:`ParityMergeStep` records.

The word table is every (language, word), languages in order. A record's ``count`` is the pair's count in
the column it was chosen by (the language's, or the sum for a global merge); ``language``, ``compared``,
``freq`` and ``costs`` (tokens per language after the merge, where the reference measures them) are the
reference's own figures; ``changed_pairs`` counts sum the languages. Ties: the reference's rule only.

``reading="reference"`` (default) reads text as the reference does (its pre-tokenizer, bytes as glyphs, its
tokenizer.json's ids; the preset gives the stop rules and ``min_frequency``, 0 meaning its default 2): the
goldens' reading. ``reading="preset"``: the preset's own pipeline and units (bytes or characters), as the
reference's ``--dict-input`` takes any word table. docs/variants.md, "Parity-aware BPE", tells the whole.

For the app: :func:`open_parity_timeline`. Read with no dev text and no ratio, each language is measured on its
training text, as the reference run with its training files as ``--dev`` (``dev_source``: "training text").

>>> t = ParityTrainer({"en": {" low": 5, " lower": 2}, "de": {" lo": 3}}, TrainerConfig(variant="parity"),
...                   dev={"en": {" low": 1}, "de": {" lo": 1}})
>>> s = t.step(); (t.display(s.new_id), s.language, s.compared, s.costs)
('Ġl', 0, (4, 3), (3, 2))
>>> _ = t.undo(); t.merge_count, t.language_costs(0)
(0, (4, 3))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.base.config import check_config, config_to_dict
from bpe_core.base.symbols import BYTE_GLYPHS, GLYPH_TO_BYTE, display as display_raw
from bpe_core.model import BPEModel
from bpe_core.training.config import alphabet_order, limit_reached, run_target
from bpe_core.types import (BPELensError, Cancelled, MergeStep, PairCount, Progress, Raw, TrainerConfig,
                            TrainingStats, WordChange)
from bpe_core.variants.parity import ParityBPE, check_measure, reference_words

__all__ = ["ParityMergeStep", "ParityTrainer", "REFERENCE_SPECIALS", "open_parity_timeline", "reference_words"]

#: the reference tokenizer's special tokens, ids 0-3
REFERENCE_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")
PerLanguage = Mapping[str, Mapping[str, int]]


@dataclass(frozen=True)
class ParityMergeStep(MergeStep):
    """A :class:`MergeStep` with the reference's figures (see the module doc)."""

    language: int = -1
    compared: Tuple[int, ...] = ()
    freq: Tuple[int, ...] = ()
    costs: Tuple[int, ...] = ()


class ParityTrainer:
    """Parity-aware BPE with a Trainer's face over ``train`` (language -> word -> count) and ``dev`` alike."""

    EXAMPLES = 16

    def __init__(self, train: PerLanguage, config: TrainerConfig, *, dev: Optional[PerLanguage] = None,
                 reading: str = "reference", ratio: Optional[Sequence[float]] = None) -> None:
        check_config(config)
        if reading not in ("reference", "preset"):
            raise BPELensError(f"unknown reading {reading!r}; choose reference or preset")
        self.config, self.reading = config, reading
        self._bytes = reading == "reference" or config.unit == "bytes"
        self.languages: List[str] = list(train)
        if not self.languages:
            raise BPELensError("parity-aware BPE needs at least one language")
        if dev is not None and list(dev) != self.languages:
            raise BPELensError("the dev text must name the same languages, in the same order, as the training text")
        ratio = check_measure(len(self.languages), dev is not None, config.parity_mode, ratio,
                              config.parity_global_merges)
        self._symbols = self._symbol_fn()
        self.words, self.freqs, self.word_language = [], [], []  # type: List[str], List[int], List[int]
        counters = []
        for li, lang in enumerate(self.languages):
            kept = {w: n for w, n in train[lang].items() if n >= 1}
            self.words += kept
            self.freqs += kept.values()
            self.word_language += [li] * len(kept)
            counters.append(self._count(kept))
        if not self.words:
            raise BPELensError("no words to train on")
        dev_counters = None if dev is None else [self._count(dev[lang]) for lang in self.languages]
        self.bpe = ParityBPE(counters, dev_counters, variant="window" if config.parity_mode == "window" else "base",
                             window_size=config.parity_window, alpha=config.parity_alpha,
                             global_merges=config.parity_global_merges, ratio=ratio,
                             min_frequency=config.min_frequency or 2)
        self._rows_of_words()
        self._alphabet()
        self.history: List[ParityMergeStep] = []
        self._known: List[ParityMergeStep] = []  # every merge made at each rank (undone ones kept)
        self._created: List[bool] = []
        self.stop_reason: Optional[str] = None
        self.picks: Dict[int, Tuple[int, int]] = {}
        self.total_words = sum(self.freqs)
        self.total_units = sum(f * (len(w.encode()) if self._bytes else len(w)) for w, f in zip(self.words, self.freqs))
        self._initial_costs = tuple(self._costs())

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_languages(cls, source: "str | Path", config: TrainerConfig, *, dev: "str | Path | PerLanguage | None" = None,
                       reading: str = "reference", ratio: Optional[Sequence[float]] = None,
                       progress: Optional[Callable[[Progress], None]] = None,
                       cancel: Optional[Callable[[], bool]] = None) -> "ParityTrainer":
        """Read ``source`` (a folder of one file per language, dev text in its ``dev/``; or a table with a
        language column) and start at merge 0. ``dev``: a dev folder or table, or counts, instead."""
        check_config(config)
        train = cls._read(source, config, reading, progress, cancel, dev_folder=False)
        dev_counts = cls._read(dev, config, reading, progress, cancel) if isinstance(dev, (str, Path)) else dev
        if dev_counts is None and Path(source).is_dir() and (Path(source) / "dev").is_dir():
            dev_counts = cls._read(source, config, reading, progress, cancel, dev_folder=True)
        on_train = dev_counts is None and ratio is None and config.parity_mode != "ratio"
        t = cls(train, config, dev=train if on_train else dev_counts, reading=reading, ratio=ratio)
        t.dev_source = "training text" if on_train else ("dev text" if dev_counts is not None else "ratio")
        return t

    @staticmethod
    def _read(source, config, reading, progress, cancel, dev_folder: bool = False) -> Dict[str, Dict[str, int]]:
        from bpe_core.corpus.languages import read_languages
        if reading == "reference":
            return read_languages(source, reference_words, dev_folder=dev_folder, progress=progress, cancel=cancel)
        from bpe_core.corpus.counting import count_words_in_texts
        return read_languages(source, lambda text: dict(count_words_in_texts([text], config)), dev_folder=dev_folder,
                              progress=progress, cancel=cancel)

    def _symbol_fn(self) -> Callable[[str], tuple]:
        if self.reading == "reference":
            return lambda w: tuple(BYTE_GLYPHS[b] for b in w.encode("utf-8"))
        from bpe_core.pipelines.chain import Pipeline
        units = Pipeline(self.config).units
        if self.config.unit == "bytes" and self.config.end_of_word_suffix:
            raise BPELensError("parity-aware BPE on bytes takes no separate end-of-word symbol")
        glyphs = self.config.unit == "bytes"
        return lambda w: tuple(BYTE_GLYPHS[s[0]] if glyphs else s for s in units.symbols(w))

    def _count(self, counts: Mapping[str, int]) -> Dict[tuple, int]:
        c: Dict[tuple, int] = {}
        for w, n in counts.items():
            key = self._symbols(w)
            c[key] = c.get(key, 0) + n
        return c

    def _rows_of_words(self) -> None:
        row = {w: k for k, (w, _) in enumerate(self.bpe.train.words)}
        self._row: List[int] = [row[self._symbols(w)] for w in self.words]
        self._words_of_row: List[List[int]] = [[] for _ in self.bpe.train.words]
        for i, k in enumerate(self._row):
            self._words_of_row[k].append(i)

    def _raw(self, sym: str) -> Raw:
        return bytes([GLYPH_TO_BYTE[c] for c in sym]) if self._bytes else sym

    def _alphabet(self) -> None:
        self._tokens: List[Raw] = []
        self._ids: Dict[str, int] = {}  # symbol (glyph string) -> id
        self.specials: Dict[str, int] = {}
        seen = {self._raw(s): None for w, _ in self.bpe.train.words for s in w}
        if self.reading == "reference":
            specials, alphabet = REFERENCE_SPECIALS, [bytes([b]) for b in range(256)]
        else:
            specials, alphabet = self.config.special_tokens, alphabet_order(seen, self.config)
        for t in specials:
            self.specials[t] = len(self._tokens)
            self._tokens.append(t)
        for raw in alphabet:
            self._ids[self._sym(raw)] = len(self._tokens)
            self._tokens.append(raw)
        self.initial_vocab_size = len(self._tokens)

    def _sym(self, raw: Raw) -> str:
        return "".join(BYTE_GLYPHS[b] for b in raw) if isinstance(raw, bytes) else raw

    # -- queries -------------------------------------------------------------------------------------
    merge_count = property(lambda self: len(self.history))
    vocab_size = property(lambda self: len(self._tokens))

    @property
    def stats(self) -> TrainingStats:
        total = sum(self.bpe.train.lengths)
        return TrainingStats(self.merge_count, self.vocab_size, total, self.total_words, self.total_units)

    def token(self, token_id: int) -> Raw:
        return self._tokens[token_id]

    def display(self, token_id: int, *, hex_bytes: bool = False) -> str:
        return display_raw(self._tokens[token_id], hex_bytes=hex_bytes)

    def id_of(self, raw: Raw) -> Optional[int]:
        if isinstance(raw, str) and raw in self.specials:
            return self.specials[raw]
        return self._ids.get(self._sym(raw))

    def segmentation(self, word_index: int) -> Tuple[int, ...]:
        ids = self._ids
        return tuple(ids[s] for s in self.bpe.train.words[self._row[word_index]][0])

    def _pair_syms(self, left: int, right: int) -> tuple:
        return self._sym(self._tokens[left]), self._sym(self._tokens[right])

    def pair_count(self, left: int, right: int) -> int:
        """The pair's count in the training text, summed over the languages."""
        c = self.bpe.train.pairs.get(self._pair_syms(left, right))
        return sum(c[: self.bpe.n]) if c else 0

    def top_pairs(self, k: int = 20) -> List[PairCount]:
        """The ``k`` best pairs of the language the next merge is chosen for (its counts), best first."""
        col = self.bpe.column(self.bpe.next_language())
        pairs, ids = self.bpe.train.pairs, self._ids
        return [PairCount(ids[a], ids[b], pairs[(a, b)][col]) for a, b in self.bpe.train.top(col, k)
                if pairs[(a, b)][col] > 0]

    def _costs(self) -> List[int]:
        return list(self.bpe.dev.lengths if self.bpe.dev is not None and not self.bpe.ratio
                    else self.bpe.train.lengths)

    def language_costs(self, k: Optional[int] = None) -> Tuple[int, ...]:
        """Tokens per language after merge ``k`` (default: now; any merge made, undone ones too, as a Timeline
        still shows them), as the reference measures (see the module doc)."""
        k = self.merge_count if k is None else k
        if not 0 <= k <= len(self._known):
            raise IndexError(f"merge {k} has not been made")
        return self._initial_costs if k == 0 else self._known[k - 1].costs

    def ties(self, *, limit: int = 200):  # the tie inspector's (training.ties.find_ties asks for it)
        from bpe_core.variants.parity_ties import parity_ties
        return parity_ties(self, limit=limit)

    def id_of_symbol(self, sym: str) -> int:
        return self._ids[sym]

    def words_of_row(self, k: int) -> List[int]:
        return self._words_of_row[k]

    # -- stepping ------------------------------------------------------------------------------------
    def step(self, *, detail: bool = True, pair: Optional[Tuple[int, int]] = None) -> Optional[ParityMergeStep]:
        """Make the next merge (``pair``: this one instead); None with ``stop_reason`` set at a stop rule."""
        reason = limit_reached(self.config, self.merge_count, self.vocab_size, self.initial_vocab_size)
        if reason:
            self.stop_reason = reason
            return None
        if pair is None and self.picks:
            pair = self.picks.get(self.merge_count)
        syms = None
        if pair is not None:
            n = len(self._tokens)
            if not all(0 <= t < n for t in pair) or self.pair_count(*pair) <= 0:
                raise BPELensError(f"the pair {pair} does not occur at merge {self.merge_count}")
            syms = self._pair_syms(*pair)
        s = self.bpe.step(syms)
        if s is None:
            self.stop_reason = "min_frequency" if self.bpe.train.pairs else "no_pairs"
            return None
        self.stop_reason = None
        a, b = s.pair
        left, right = self._ids[a], self._ids[b]
        new_id = self._ids.get(a + b)
        created = new_id is None
        if created:
            new_id = self._ids[a + b] = len(self._tokens)
            self._tokens.append(self._tokens[left] + self._tokens[right])  # type: ignore[operator]
        self._created.append(created)
        changed = tuple(sorted(i for k in self.bpe.last_changed for i in self._words_of_row[k]))
        col = self.bpe.column(s.lang)
        tokens = self._tokens
        step = ParityMergeStep(self.merge_count + 1, left, right, new_id, tokens[left], tokens[right], tokens[new_id],
                               s.freq[col], created, changed, (), (), self.stats, (), s.lang, tuple(s.lengths),
                               tuple(s.freq), tuple(self._costs()))
        step = replace(step, stats=replace(step.stats, merges=step.rank))
        self.history.append(step)
        known = self._known
        if len(known) >= step.rank and (known[step.rank - 1].left, known[step.rank - 1].right) != (left, right):
            del known[step.rank - 1:]  # another future (a picked pair)
        if len(known) < step.rank:
            known.append(step)
        return self.detail(step) if detail else step

    def detail(self, step: MergeStep) -> MergeStep:
        """``step`` with its examples and changed pairs; only for the latest step."""
        if not self.history or self.history[-1].rank != step.rank:
            raise ValueError("details can only be computed for the latest step")
        if step.examples or not step.changed_words:
            return step
        full = replace(step, examples=self._examples(step), changed_pairs=self._changed_pairs(step))
        self.history[-1] = full
        return full

    def _before(self, step: MergeStep, after: Tuple[int, ...]) -> Tuple[int, ...]:
        out: List[int] = []
        for t in after:
            out.extend((step.left, step.right) if t == step.new_id else (t,))
        return tuple(out)

    def _examples(self, step: MergeStep) -> Tuple[WordChange, ...]:
        picked = sorted(step.changed_words, key=lambda i: -self.freqs[i])[: self.EXAMPLES]
        return tuple(WordChange(i, self.words[i], self.freqs[i], self._before(step, self.segmentation(i)),
                                self.segmentation(i)) for i in picked)

    def _changed_pairs(self, step: MergeStep) -> Tuple[Tuple[int, int, int], ...]:
        rows = sorted({self._row[i] for i in step.changed_words})
        touched = {(step.left, step.right)}
        for k in rows:
            after = self.segmentation(self._words_of_row[k][0])
            for seq in (after, self._before(step, after)):
                touched.update(zip(seq, seq[1:]))
        return tuple((left, right, self.pair_count(left, right)) for left, right in sorted(touched))

    def undo(self) -> Optional[ParityMergeStep]:
        """Take the last merge back; the state equals the state before it, exactly."""
        if not self.history:
            return None
        step = self.history.pop()
        self.bpe.undo()
        if self._created.pop():
            raw = self._tokens.pop()
            del self._ids[self._sym(raw)]
        self.stop_reason = None
        return step

    def iter_steps(self, limit: Optional[int] = None, *, detail: bool = True) -> Iterator[ParityMergeStep]:
        done = 0
        while (limit is None or done < limit) and self.step(detail=detail) is not None:
            done += 1
            yield self.history[-1]

    def run(self, *, merges: Optional[int] = None, vocab_size: Optional[int] = None,
            progress: Optional[Callable[[Progress], None]] = None,
            cancel: Optional[Callable[[], bool]] = None) -> List[ParityMergeStep]:
        """Merge until ``merges`` / ``vocab_size`` / the config's stop rules (``cancel``: between merges)."""
        target = run_target(self.config, merges, vocab_size, self.merge_count, self.vocab_size,
                            len(self.bpe.train.pairs))
        out: List[ParityMergeStep] = []
        while (merges is None or self.merge_count < merges) and (vocab_size is None or self.vocab_size < vocab_size):
            if cancel is not None and cancel():
                raise Cancelled()
            if self.step(detail=False) is None:
                break
            out.append(self.history[-1])
            if progress is not None and not len(out) & 63:
                progress(Progress(self.merge_count, target, "merges"))
        if progress is not None:
            progress(Progress(self.merge_count, self.merge_count, "merges"))
        return out

    def seek(self, k: int) -> List[ParityMergeStep]:
        out: List[ParityMergeStep] = []
        while self.merge_count != k:
            s = self.undo() if self.merge_count > k else self.step()
            if s is None:
                break
            out.append(s)
        return out

    def reset(self) -> None:
        self.seek(0)

    # -- export ----------------------------------------------------------------------------------------
    @property
    def pipeline(self):
        pipe = self.__dict__.get("_pipeline")
        if pipe is None:
            if self.reading == "reference":
                from bpe_core.formats.parity_files import reference_pipeline
                pipe = reference_pipeline(self.specials)
            else:
                from bpe_core.pipelines.chain import Pipeline
                pipe = Pipeline(self.config).with_specials(self.specials)
            self._pipeline = pipe
        return pipe

    def model(self) -> BPEModel:
        """The vocabulary now; ``extras["parity"]`` holds the languages, the reading and each merge's language.
        Read as the reference reads, the model carries the reference's tokenizer.json layout in its config
        (pre-tokenizer, decoder, template, added tokens) and ``<unk>``: the native file and any tokenizer.json
        writer keep its pipeline."""
        cfg, ref = self.config, self.reading == "reference"
        config = config_to_dict(cfg)
        if ref:
            from bpe_core.formats.parity_files import reference_layout
            config.update(reference_layout(self.specials))
        return BPEModel(unit="bytes" if ref else cfg.unit, tokens=list(self._tokens),
                        merges=[(s.left, s.right) for s in self.history], merge_counts=[s.count for s in self.history],
                        specials=dict(self.specials), pipeline=self.pipeline, algorithm="merges",
                        end_of_word_suffix="" if ref else cfg.end_of_word_suffix,
                        unk_id=self.specials.get("<unk>") if ref else None,
                        name=cfg.preset, source_format="native", config=config,
                        extras={"parity": {"languages": list(self.languages), "reading": self.reading,
                                           "picked": [s.language for s in self.history]}})


def open_parity_timeline(source: "str | Path", config: TrainerConfig, *, dev=None, reading: str = "reference",
                         ratio: Optional[Sequence[float]] = None, progress=None, cancel=None):
    """A :class:`~bpe_core.training.timeline.Timeline` over a new :class:`ParityTrainer` (a worker's job)."""
    from bpe_core.training.timeline import Timeline
    return Timeline(ParityTrainer.from_languages(source, config, dev=dev, reading=reading, ratio=ratio,
                                                 progress=progress, cancel=cancel))
