"""TEMPORARY stand-in for bpe_core.trainer.Trainer until the lead's trainer lands.

Naive (recounts every pair each step) but follows the API in docs/architecture.md, so the
app and its tests can be written against it. Delete once bpe_core/trainer.py exists.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator, Optional

from bpe_core.model import BPEModel
from bpe_core.symbols import display as display_raw
from bpe_core.types import BPELensError, Cancelled, MergeStep, PairCount, Progress, TrainerConfig, TrainingStats, WordChange


class Trainer:
    EXAMPLES = 8

    def __init__(self, word_counts: dict, config: TrainerConfig) -> None:
        self.config = config
        self.words = list(word_counts)
        self.freqs = [word_counts[w] for w in self.words]
        alphabet = sorted({c for w in self.words for c in w})
        self._tokens: list = alphabet + ([config.end_of_word_suffix] if config.end_of_word_suffix else [])
        self._ids = {t: i for i, t in enumerate(self._tokens)}
        suffix = [self._ids[config.end_of_word_suffix]] if config.end_of_word_suffix else []
        self._segs = [[self._ids[c] for c in w] + suffix for w in self.words]
        self.history: list[MergeStep] = []
        self.stop_reason: Optional[str] = None
        self._units = sum(len(w) * f for w, f in zip(self.words, self.freqs))

    @classmethod
    def from_corpus(cls, path, config, progress=None, cancel=None):
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise BPELensError(f"Cannot read {path}: {exc}") from exc
        counts: dict = {}
        lines = text.splitlines()
        for n, line in enumerate(lines):
            if cancel and cancel():
                raise Cancelled()
            for w in (line.lower() if config.lowercase else line).split():
                counts[w] = counts.get(w, 0) + 1
            if progress and n % 500 == 0:
                progress(Progress(n, len(lines), "lines"))
        if not counts:
            raise BPELensError(f"{path} holds no words")
        return cls(counts, config)

    # -- state --------------------------------------------------------------------------------
    @property
    def merge_count(self) -> int:
        return len(self.history)

    @property
    def vocab_size(self) -> int:
        return len(self._tokens)

    @property
    def stats(self) -> TrainingStats:
        tokens = sum(len(s) * f for s, f in zip(self._segs, self.freqs))
        return TrainingStats(self.merge_count, self.vocab_size, tokens, sum(self.freqs), self._units)

    def segmentation(self, i: int) -> tuple:
        return tuple(self._segs[i])

    def token(self, i: int):
        return self._tokens[i]

    def display(self, i: int) -> str:
        return display_raw(self._tokens[i])

    def _pairs(self) -> Counter:
        c: Counter = Counter()
        for s, f in zip(self._segs, self.freqs):
            for a, b in zip(s, s[1:]):
                c[(a, b)] += f
        return c

    def top_pairs(self, k: int) -> list:
        c = self._pairs()
        order = sorted(c.items(), key=lambda kv: -kv[1])[:k]
        return [PairCount(a, b, n) for (a, b), n in order]

    def _target_reached(self) -> bool:
        cfg = self.config
        if cfg.num_merges is not None and self.merge_count >= cfg.num_merges:
            self.stop_reason = "num_merges"
            return True
        if cfg.vocab_size is not None and self.vocab_size >= cfg.vocab_size:
            self.stop_reason = "vocab_size"
            return True
        return False

    def step(self) -> Optional[MergeStep]:
        if self._target_reached():
            return None
        top = self.top_pairs(1)
        if not top or top[0].count < max(1, self.config.min_frequency):
            self.stop_reason = "no pairs" if not top else "min_frequency"
            return None
        a, b, n = top[0].left, top[0].right, top[0].count
        new = self._tokens[a] + self._tokens[b]
        created = new not in self._ids
        if created:
            self._ids[new] = len(self._tokens)
            self._tokens.append(new)
        nid = self._ids[new]
        changed, examples = [], []
        for i, s in enumerate(self._segs):
            out, j, hit = [], 0, False
            while j < len(s):
                if j + 1 < len(s) and s[j] == a and s[j + 1] == b:
                    out.append(nid); j += 2; hit = True
                else:
                    out.append(s[j]); j += 1
            if hit:
                changed.append(i)
                examples.append(WordChange(i, self.words[i], self.freqs[i], tuple(s), tuple(out)))
                self._segs[i] = out
        examples.sort(key=lambda w: -w.freq)
        step = MergeStep(rank=self.merge_count + 1, left=a, right=b, new_id=nid, left_token=self._tokens[a],
                         right_token=self._tokens[b], new_token=new, count=n, created=created,
                         changed_words=tuple(changed), examples=tuple(examples[: self.EXAMPLES]),
                         changed_pairs=((a, b, 0),), stats=TrainingStats(0, 0, 0, 0, 0))
        self.history.append(step)
        step = MergeStep(**{**step.__dict__, "stats": self.stats})
        self.history[-1] = step
        self.stop_reason = None
        return step

    def undo(self) -> Optional[MergeStep]:
        if not self.history:
            return None
        step = self.history.pop()
        full = {ex.word_index: ex.before for ex in step.examples}
        for i in step.changed_words:
            s, out = self._segs[i], []
            for t in s:
                out.extend((step.left, step.right) if t == step.new_id else (t,))
            self._segs[i] = full.get(i, out) if False else out
        if step.created:
            del self._ids[self._tokens.pop()]
        self.stop_reason = None
        return step

    def iter_steps(self, limit: Optional[int] = None) -> Iterator[MergeStep]:
        n = 0
        while limit is None or n < limit:
            s = self.step()
            if s is None:
                return
            n += 1
            yield s

    def run(self, merges=None, vocab_size=None, progress=None, cancel=None) -> list:
        out = []
        for s in self.iter_steps(merges):
            out.append(s)
            if cancel and cancel():
                break
        return out

    def seek(self, k: int) -> None:
        while self.merge_count > k:
            self.undo()
        while self.merge_count < k and self.step() is not None:
            pass

    def model(self) -> BPEModel:
        return BPEModel(unit=self.config.unit, tokens=list(self._tokens),
                        merges=[(s.left, s.right) for s in self.history],
                        merge_counts=[s.count for s in self.history])
