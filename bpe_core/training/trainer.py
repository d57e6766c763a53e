"""The stepwise BPE trainer: step / undo / run, stop rules, step records, the vocabulary.

The pair statistics live in :class:`~bpe_core.training.pair_index.PairIndex` (incremental counts, a
pair -> words index, a lazy heap): one merge touches only the words that hold the pair and the
corpus is never recounted. The trainer owns the vocabulary, the history and the undo log.

Tie rules (first-seen, hf, lexicographic) are deterministic (:mod:`bpe_core.training.ties` says why each
picks what; heap keys in pair_index). A pair can be picked by hand: ``step(pair=...)``, :attr:`Trainer.picks`.

>>> t = Trainer({"low": 5, "lower": 2, "newest": 6, "widest": 3}, TrainerConfig(end_of_word_suffix="</w>"))
>>> s = t.step(); (t.display(s.left), t.display(s.right), s.count)
('e', 's', 9)
>>> _ = t.undo(); t.merge_count
0
"""
from __future__ import annotations

import gc
from dataclasses import replace
from operator import mul
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.base.merge import expand_pair, merge_table, segment_all
from bpe_core.base.symbols import display as display_raw
from bpe_core.model import BPEModel
from bpe_core.base.config import check_config, config_to_dict
from bpe_core.training.config import adopted_tokens, alphabet_order, keeps_its_pipeline, limit_reached
from bpe_core.training.memory import gc_paused
from bpe_core.training.pair_index import MASK, SHIFT, PairIndex
from bpe_core.training.flat_run import run_merges
from bpe_core.training.export import trainer_model, trainer_pipeline
from bpe_core.training.records import changed_pairs, word_changes
from bpe_core.training.picky import best_allowed, covered, refusal, rules_of
from bpe_core.types import BPELensError, MergeStep, PairCount, Progress, Raw, TrainerConfig, TrainingStats

__all__ = ["Trainer"]


SymbolsFn = Callable[[str], Sequence[Raw]]


class Trainer:
    """Learns merges one at a time and can take each one back.

    ``word_counts`` maps each unique word to its frequency, in order of first appearance.
    ``config`` says how (pre-tokenizer, unit, tie rule, stop rules); the options are keyword-only.

    >>> t = Trainer({"hug": 10, "pug": 5, "hugs": 5}, TrainerConfig(tie_break="hf"))
    >>> [(s.new_token, s.count) for s in t.run(merges=2)]
    [('ug', 20), ('hug', 15)]
    >>> t.undo().new_token, t.merge_count, t.model().merges
    ('hug', 1, [(4, 0)])
    """

    EXAMPLES = 16

    def __init__(self, word_counts: Mapping[str, int], config: TrainerConfig, *,
                 symbols_fn: Optional[SymbolsFn] = None, start: Optional[BPEModel] = None,
                 segments: Optional[List[List[int]]] = None, lazy_index: bool = False) -> None:
        """``start``: continue from a loaded vocabulary (callers go through
        :func:`bpe_core.training.continuing.continue_training`) - its tokens keep their ids, its merges are
        applied to every word first, and new merges are learned on top (undo stops there). ``segments``
        (with ``start``): each kept word's ids in ``start``, its merges applied already (SuperBPE's replay).
        ``lazy_index``: the pair index is built at its first need, so :meth:`run` may go through flat arrays
        (:mod:`~bpe_core.training.flat_run`) and a command that only trains and saves never builds it."""
        self.config = config
        check_config(config)
        self._config_dict = config_to_dict(config)  # the config is frozen: convert it once
        fast_bytes = False
        if symbols_fn is None:
            # the config's text pipeline: the chain the corpus was counted with and models encode through
            from bpe_core.pipelines.chain import Pipeline
            chain = self._chain = Pipeline(config)
            symbols_fn = chain.units.symbols  # the chain's unit mapper (Pipeline.initial_symbols, one call less)
            # bytes of the word, one symbol each: map UTF-8 straight to ids (no symbol objects)
            fast_bytes = start is None and chain.units.plain_bytes
        least = max(1, config.min_word_count)  # the same filter twice, in the mapping's order: no pairs built
        self.words: List[str] = [w for w, c in word_counts.items() if c >= least]
        self.freqs: List[int] = [c for c in word_counts.values() if c >= least]
        if not self.words:
            raise BPELensError("no words to train on" + (
                f" (min word count {config.min_word_count} removed all of them)" if word_counts else ""))
        self._tokens: List[Raw] = []
        self._ids: Dict[Raw, int] = {}
        self.specials: Dict[str, int] = {}
        self.base_merges: List[Tuple[int, int]] = []
        self.base_counts: List[Optional[int]] = []
        if fast_bytes:
            encoded = list(map(str.encode, self.words))  # UTF-8
            self._build_alphabet({bytes([b]): None for b in dict.fromkeys(b"".join(encoded))})
            table = [self._ids.get(bytes([b]), -1) for b in range(256)]
            with gc_paused():  # 81k lists that live as long as the trainer: no collections over them (30 ms)
                self._segs: List[List[int]] = [list(map(table.__getitem__, e)) for e in encoded]
            unit_lens: Iterable[int] = map(len, encoded)
        elif segments is not None and start is not None:  # ready: start's tokens, no symbol mapped again
            self._adopt(start, [])
            self._segs, unit_lens = segments, map(self._word_units, self.words)
        else:
            initial = [list(symbols_fn(w)) for w in self.words]
            if config.variant == "picky":  # the reference's coverage: its rarest characters become <UNK>
                initial = covered(initial, self.freqs, config)
            if start is None:
                self._build_alphabet(dict.fromkeys(s for syms in initial for s in syms))
            else:
                self._adopt(start, initial)
            ids = self._ids
            self._segs = [[ids[s] for s in syms] for syms in initial]
            unit_lens = map(self._word_units, self.words)
        self.initial_vocab_size = len(self._tokens)
        if start is not None and segments is None:
            ids, tokens = self._ids, self._tokens
            made = [ids[tokens[a] + tokens[b]] for a, b in self.base_merges]  # type: ignore[operator]
            # as the vocabulary's encoder would (the one table: a repeated pair keeps its last rank)
            self._segs = segment_all(self._segs, merge_table(self.base_merges, made))
        self.total_words = sum(self.freqs)
        self.total_units = sum(map(mul, self.freqs, unit_lens))
        self._total_tokens = sum(map(mul, self.freqs, map(len, self._segs)))
        self._index: Optional[PairIndex] = None
        if not lazy_index or config.variant == "picky" or config.tie_break == "table-order":
            self._index = self._build_index()  # the rules below read it
        self._rules = rules_of(self)  # PickyBPE's removals, table-order serials (None for plain BPE)
        self._refuse = refusal(self)  # pairs a rule never merges (None: every pair may merge)
        gc.freeze()  # millions of long-lived objects: keep the cyclic GC off them. No collect here: on a
        # GUI's worker it would free the GUI's own garbage (Qt wrappers) off the GUI thread (a deadlock seen)
        self.history: List[MergeStep] = []
        self._undo_log: List[Tuple[int, int, int, bool, Tuple[int, ...], Optional[List[List[int]]], Any]] = []
        self.stop_reason: Optional[str] = None
        #: position (merges done) -> (left, right) ids merged there instead of the best pair
        self.picks: Dict[int, Tuple[int, int]] = {}

    # -- construction ------------------------------------------------------------------
    @classmethod
    def from_corpus(cls, path: str, config: TrainerConfig, *, progress: Optional[Callable[[Progress], None]] = None,
                    cancel: Optional[Callable[[], bool]] = None, errors: str = "strict") -> "Trainer":
        from bpe_core.corpus.counting import count_words
        check_config(config)  # before reading a possibly large corpus
        return cls(count_words(path, config, progress=progress, cancel=cancel, errors=errors), config)

    @classmethod
    def from_texts(cls, texts: Sequence[str], config: TrainerConfig) -> "Trainer":
        from bpe_core.corpus.counting import count_words_in_texts
        return cls(count_words_in_texts(texts, config), config)

    def _adopt(self, model: BPEModel, initial: List[List[Raw]]) -> None:
        for t in adopted_tokens(model, self.config, initial):
            self._add_token(t)
        self.specials = dict(model.specials)
        if keeps_its_pipeline(model):
            self._pipeline = model.pipeline  # imported: its normalizer, pre-tokenizer and added tokens stay
        self.base_merges, self.base_counts = list(model.merges), list(model.merge_counts)

    def _build_alphabet(self, seen: Dict[Raw, None]) -> None:
        """Ids for the specials and the symbols ``seen`` (in order of first appearance)."""
        cfg = self.config
        if cfg.specials_position == "first":
            self._add_specials()
        for s in alphabet_order(seen, cfg):
            if s not in self._ids:  # a special may stand in the words (PickyBPE's <UNK>)
                self._add_token(s)
        if cfg.specials_position == "after-alphabet":
            self._add_specials()

    def _add_specials(self) -> None:
        for text in self.config.special_tokens:
            key: Raw = text
            if key in self._ids:
                self.specials[text] = self._ids[key]
            else:
                self.specials[text] = self._add_token(key)

    def _add_token(self, raw: Raw) -> int:
        tid = len(self._tokens)
        self._tokens.append(raw)
        self._ids[raw] = tid
        return tid

    def _word_units(self, word: str) -> int:
        return len(word.encode("utf-8")) if self.config.unit == "bytes" else len(word)

    def _build_index(self) -> PairIndex:
        lens = [len(t) if t is not None else 0 for t in self._tokens]
        return PairIndex(self._segs, self.freqs, self._tokens, lens, self.config.tie_break)

    @property
    def _idx(self) -> PairIndex:
        """The pair index, built at the first need when the trainer was made with ``lazy_index``."""
        if self._index is None:
            self._index = self._build_index()
        return self._index

    # -- public queries ------------------------------------------------------------------
    merge_count = property(lambda self: len(self.history))  # merges done

    #: ids given out so far (a removed token keeps its id; :attr:`vocab_size` counts the present tokens)
    token_count = property(lambda self: len(self._tokens))

    @property
    def vocab_size(self) -> int:
        """Tokens in the vocabulary now (a token a rule removed does not count; it keeps its id)."""
        return len(self._tokens) - (self._rules.absent if self._rules is not None else 0)

    @property
    def stats(self) -> TrainingStats:
        return TrainingStats(self.merge_count, self.vocab_size, self._total_tokens, self.total_words,
                             self.total_units)

    def token(self, token_id: int) -> Raw:
        return self._tokens[token_id]

    def display(self, token_id: int, *, hex_bytes: bool = False) -> str:
        return display_raw(self._tokens[token_id], hex_bytes=hex_bytes)

    def id_of(self, raw: Raw) -> Optional[int]:
        return self._ids.get(raw)

    def segmentation(self, word_index: int) -> Tuple[int, ...]:
        return tuple(self._segs[word_index])

    def pair_count(self, left: int, right: int) -> int:
        return self._idx.count(left, right)

    _counts = property(lambda self: self._idx.counts)  # for tests: pair key -> count

    pair_index = property(lambda self: self._idx, doc="The live pair statistics (read by ties; do not mutate).")

    def top_pairs(self, k: int = 20) -> List[PairCount]:
        """The ``k`` best pairs, in the order the tie rule would merge them."""
        return [PairCount(key >> SHIFT, key & MASK, c) for key, c in self._idx.top(k)]

    # -- stepping ------------------------------------------------------------------------
    def step(self, *, detail: bool = True, pair: Optional[Tuple[int, int]] = None) -> Optional[MergeStep]:
        """Apply the next merge; None (and ``stop_reason`` set) when a stop rule holds.

        ``detail=False`` leaves ``examples`` and ``changed_pairs`` empty (bulk runs: half the cost);
        :meth:`detail` fills them in for the latest step. ``pair`` (ids): merge it instead of the best
        pair, whatever its count (it must occur); :attr:`picks` does the same at given positions.
        """
        reason = limit_reached(self.config, len(self.history), self.vocab_size, self.initial_vocab_size)
        if reason:
            self.stop_reason = reason
            return None
        if pair is None and self.picks:
            pair = self.picks.get(self.merge_count)
        if pair is not None:
            return self._merge_picked(pair, detail)
        best = self._idx.pop_best() if self._refuse is None else best_allowed(self._idx, self._refuse)
        if best is None:
            self.stop_reason = "no_pairs"
            return None
        k, count = best
        if count < self.config.min_frequency:
            self._idx.push_back(k, count)
            self.stop_reason = "min_frequency"
            return None
        self.stop_reason = None
        return self._merge(k, count, detail)

    def _merge_picked(self, pair: Tuple[int, int], detail: bool) -> MergeStep:
        left, right = pair
        n = len(self._tokens)
        count = self._idx.count(left, right) if 0 <= left < n and 0 <= right < n else 0
        if count <= 0:
            raise BPELensError(f"the pair {pair} does not occur at merge {self.merge_count}")
        self.stop_reason = None
        return self._merge((left << SHIFT) | right, count, detail)

    def _merge(self, k: int, count: int, detail: bool = True) -> MergeStep:
        left, right = k >> SHIFT, k & MASK
        raw = self._tokens[left] + self._tokens[right]  # type: ignore[operator]
        new_id = self._ids.get(raw)
        created = new_id is None
        idx = self._idx
        if new_id is None:
            new_id = self._add_token(raw)
            idx.add_token(idx.lens[left] + idx.lens[right])
        words = idx.take_words(k)
        befores: Optional[List[List[int]]] = None if created else []
        log: Optional[List[Tuple[int, int]]] = [] if detail else None
        changed, removed = idx.apply(words, left, right, new_id, befores, log)
        idx.drop(k)
        self._total_tokens -= removed
        changed_words = tuple(changed)  # one tuple shared by the undo log and the record
        extra, removals = None, ()
        if self._rules is not None:
            removals, extra, delta = self._rules.merged(left, right, new_id, created, removed, changed_words, befores)
            self._total_tokens += delta
        self._undo_log.append((left, right, new_id, created, changed_words, befores, extra))
        if log is not None:
            log.append((k, -count))  # the merged pair itself goes to 0
        if removals:  # the record lists the removals' words too, and their pairs are diffed from the words
            changed_words, befores, log = extra.changed, extra.befores, None if log is None else []
        step = self._record(left, right, new_id, count, created, changed_words, befores, log)
        if removals:
            step = replace(step, removals=removals)
        if len(self.history) % 1024 == 1023:
            gc.freeze()  # keep the cyclic GC off what survived: its full passes grow with the heap
        self.history.append(step)
        return step

    def _record(self, left: int, right: int, new_id: int, count: int, created: bool,
                changed: Tuple[int, ...], befores: Optional[List[List[int]]],
                log: Optional[List[Tuple[int, int]]]) -> MergeStep:
        tokens, rank = self._tokens, len(self.history) + 1
        stats = TrainingStats(rank, self.vocab_size, self._total_tokens, self.total_words, self.total_units)
        examples, pairs = self._details(left, right, new_id, changed, befores, log or None) if log is not None else ((), ())
        # positional, in field order (rank, left, right, new_id, the three tokens, count, created, changed words,
        # examples, changed pairs, stats): a third cheaper than keywords, once per merge
        return MergeStep(rank, left, right, new_id, tokens[left], tokens[right], tokens[new_id], count, created,
                         changed, examples, pairs, stats)

    def detail(self, step: MergeStep) -> MergeStep:
        """``step`` with its examples and changed pairs; only for the latest step (state is needed)."""
        if not self.history or self.history[-1].rank != step.rank:
            raise ValueError("details can only be computed for the latest step")
        if step.examples or not step.changed_words:
            return step
        befores = self._undo_log[-1][5] if not step.removals else self._undo_log[-1][6].befores
        examples, pairs = self._details(step.left, step.right, step.new_id, step.changed_words, befores)
        full = replace(step, examples=examples, changed_pairs=pairs)
        self.history[-1] = full
        return full

    def _details(self, left: int, right: int, new_id: int, changed: Sequence[int],
                 befores: Optional[List[List[int]]], log: Optional[List[Tuple[int, int]]] = None
                 ) -> Tuple[tuple, tuple]:
        merge = (left, right, new_id)
        pairs = changed_pairs(self._idx.counts, self._segs, self.freqs, changed, befores, merge, log)
        examples = word_changes(self.words, self.freqs, self._segs, changed, befores, merge, self.EXAMPLES)
        return examples, pairs

    def undo(self) -> Optional[MergeStep]:
        """Take the last merge back; the state equals the state before it, exactly."""
        if not self.history:
            return None
        step = self.history.pop()
        left, right, new_id, created, changed, befores, extra = self._undo_log.pop()
        if extra is not None:
            self._total_tokens += self._rules.undo_removals(extra)
        for j, w in enumerate(changed):
            old = befores[j] if befores is not None else expand_pair(self._segs[w], new_id, left, right)
            self._total_tokens += self._idx.replace(w, old)
        if created:
            raw = self._tokens.pop()
            del self._ids[raw]
            self._idx.remove_token()
        if extra is not None:
            self._rules.undo_merge(extra, left, right, new_id, created)
        self.stop_reason = None
        return step

    def iter_steps(self, limit: Optional[int] = None, *, detail: bool = True) -> Iterator[MergeStep]:
        """Yield merges until a stop rule holds (or ``limit`` merges); a worker drives this."""
        done = 0
        while limit is None or done < limit:
            step = self.step(detail=detail)
            if step is None:
                return
            done += 1
            yield step

    def run(self, *, merges: Optional[int] = None, vocab_size: Optional[int] = None,
            progress: Optional[Callable[[Progress], None]] = None,
            cancel: Optional[Callable[[], bool]] = None) -> List[MergeStep]:
        """Run until ``merges`` total merges / ``vocab_size`` / the config's stop rules.

        ``cancel`` is checked between merges; on cancel the merges done so far are kept and
        :class:`Cancelled` is raised.
        """
        return run_merges(self, merges, vocab_size, progress, cancel)

    def seek(self, k: int) -> List[MergeStep]:
        """Step or undo until ``merge_count == k`` (or a stop rule holds); returns the steps."""
        out: List[MergeStep] = []
        while self.merge_count != k:
            s = self.undo() if self.merge_count > k else self.step()
            if s is None:
                break
            out.append(s)
        return out

    def reset(self) -> None:
        while self.history:
            self.undo()

    # -- export --------------------------------------------------------------------------
    @property
    def pipeline(self):
        """The text pipeline of this trainer's models (built once: it compiles patterns)."""
        return trainer_pipeline(self)

    def model(self) -> BPEModel:
        """The vocabulary as it stands now (ids as the trainer assigned them); see :func:`trainer_model`."""
        return trainer_model(self)
