"""Parity-aware BPE (Foroutan et al. 2025), identical to cimeister/parity-aware-bpe's learner.

Every merge is chosen for one language: the one whose dev text costs the most tokens so far (base), the
longest one not over its share of the last W choices (window), or the worst compressed against a target
ratio (ratio, no dev text). Its most frequent training pair wins, ties broken by the largest pair in
Python's order; the merge is applied to every language's training and dev words. The first
``global_merges`` merges use the summed count instead (language -1). Pure Python, step-wise: ``step()``
makes one merge and returns a ParityStep.

The worked example of docs/variants.md (the ``base`` golden: lines 1-75 of six parallel files to train,
lines 76-96 as dev text; lengths in the order eng rus arb hin zho kor):

>>> from pathlib import Path
>>> par = Path(__file__).resolve().parents[2] / "tests" / "data" / "parallel"
>>> def cut(lang, a, b):
...     return word_counts(b"".join((par / f"{lang}.txt").read_bytes().splitlines(True)[a:b]).decode())
>>> langs = ["eng", "rus", "arb", "hin", "zho", "kor"]
>>> t = ParityBPE([cut(x, 0, 75) for x in langs], dev=[cut(x, 75, 96) for x in langs])
>>> for _ in range(3):
...     s = t.step(); print(s.lengths, s.lang, s.pair, s.freq)
[2587, 5159, 4689, 7129, 2928, 3197] 3 ('à', '¤') [0, 0, 0, 6406, 0, 0]
[2587, 5159, 4689, 5568, 2928, 3197] 3 ('Ġ', 'à¤') [0, 0, 0, 2101, 0, 0]
[2587, 5159, 4689, 5030, 2928, 3197] 1 ('Ġ', 'Ð') [0, 1154, 0, 0, 0, 0]
"""
from __future__ import annotations

import heapq
import unicodedata
from dataclasses import dataclass


def _byte_glyphs() -> dict:
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


GLYPH = _byte_glyphs()


def _is_word_char(c: str) -> bool:
    """Rust regex's Unicode \\w: alphabetic, marks, decimal digits, connector punctuation, joiners."""
    if c.isalpha() or c in "\u200c\u200d":
        return True
    return unicodedata.category(c) in ("Mn", "Mc", "Me", "Nd", "Pc")


def pieces(line: str) -> list:
    """The pieces of ``Whitespace()`` (``\\w+|[^\\w\\s]+``), whitespace dropped."""
    out, cur, kind = [], [], None
    for c in line:
        k = None if c.isspace() else _is_word_char(c)
        if k != kind and cur:
            out.append("".join(cur))
            cur = []
        if k is not None:
            cur.append(c)
        kind = k
    if cur:
        out.append("".join(cur))
    return out


def word_counts(text: str) -> dict:
    """Word counts as the reference reads a file: each piece with a leading space, as byte-level glyphs."""
    counts: dict = {}
    for line in text.splitlines():
        for p in pieces(line):
            w = tuple(GLYPH[b] for b in (" " + p).encode("utf-8"))
            counts[w] = counts.get(w, 0) + 1
    return counts


def reference_words(text: str) -> dict:
    """Word counts as the reference reads a file, the words as text (each piece with its leading space)."""
    counts: dict = {}
    for line in text.splitlines():
        for p in pieces(line):
            counts[" " + p] = counts.get(" " + p, 0) + 1
    return counts


def check_measure(n: int, has_dev: bool, mode: str, ratio, global_merges: int) -> list | None:
    """The ratios a run measures by (mode "ratio": equal ones unless given), or None (dev text); refuses what
    the reference cannot run: no dev text and no ratio, a ratio per language missing, ratio with global merges
    (the reference crashes at the first merge after them: n + 1 lengths against n ratios).

    >>> check_measure(2, False, "ratio", None, 0)
    [1.0, 1.0]
    """
    from bpe_core.types import BPELensError
    if mode == "ratio" and ratio is None:
        ratio = [1.0] * n
    if ratio is not None and (len(ratio) != n or any(r <= 0 for r in ratio)):
        raise BPELensError(f"the ratio needs one positive number per language ({n})")
    if ratio is not None and global_merges:
        raise BPELensError("the ratio mode does not combine with global merges (the reference cannot run it)")
    if not has_dev and ratio is None:
        raise BPELensError("parity-aware BPE measures each language on dev text: give a dev/ folder "
                           "(or dev counts), or use the ratio mode")
    return list(ratio) if ratio is not None else None


@dataclass(frozen=True)
class ParityStep:
    """One merge: the pair, the language picked (-1: global), the lengths compared, the pair's counts."""
    pair: tuple
    lang: int
    lengths: list
    freq: list


def _merge_word(w: tuple, a: str, b: str) -> tuple:
    """``w`` with every ``a b`` merged (left to right, without overlap), and the change of its pair counts:
    only the pairs at the merged places change (old pairs at j-1, j, j+1 of each merge at j go; new pairs at
    t-1, t of each merged token at t come), every other pair maps one to one."""
    out: list = []
    i, n, js, ts = 0, len(w), [], []
    ab = a + b
    try:
        while True:
            j = w.index(a, i)
            if j + 1 < n and w[j + 1] == b:
                out.extend(w[i:j])
                js.append(j)
                ts.append(len(out))
                out.append(ab)
                i = j + 2
            else:
                out.extend(w[i:j + 1])
                i = j + 1
    except ValueError:
        out.extend(w[i:])
    new, m = tuple(out), len(out)
    delta: dict = {}
    for x in {x for j in js for x in (j - 1, j, j + 1) if 0 <= x < n - 1}:
        p = (w[x], w[x + 1])
        delta[p] = delta.get(p, 0) - 1
    for x in {x for t in ts for x in (t - 1, t) if 0 <= x < m - 1}:
        p = (new[x], new[x + 1])
        delta[p] = delta.get(p, 0) + 1
    return new, delta


class _Table:
    """Word counts per column with incremental pair counts and per-column token lengths."""

    def __init__(self, counters: list, with_sum: bool):
        n = len(counters)
        self.width = n + 1 if with_sum else n
        merged: dict = {}
        for i, c in enumerate(counters):
            for w, f in c.items():
                merged.setdefault(w, [0] * self.width)[i] += f
        self.words = []
        for w, f in merged.items():
            if with_sum:
                f[n] = sum(f[:n])
            self.words.append([w, f])
        self.pairs: dict = {}
        self.where: dict = {}
        self.lengths = [sum(len(w) * f[i] for w, f in self.words) for i in range(n)]
        for k, (w, f) in enumerate(self.words):
            self._add(k, w, f, 1)

    def _add(self, k, w, f, sign):
        for p in zip(w, w[1:]):
            c = self.pairs.get(p)
            if c is None:
                c = self.pairs[p] = [0] * self.width
            for i in range(self.width):
                c[i] += sign * f[i]
            if sign > 0:
                self.where.setdefault(p, set()).add(k)

    def _shift(self, k, new, delta, sign, f) -> None:
        """Row ``k`` becomes ``new``; its pair counts move by ``sign`` times ``delta`` (see _merge_word)."""
        pairs, width = self.pairs, self.width
        for p, d in delta.items():
            d *= sign
            if d:
                c = pairs.get(p)
                if c is None:
                    c = pairs[p] = [0] * width
                for i in range(width):
                    c[i] += d * f[i]
                if d > 0:
                    self.where.setdefault(p, set()).add(k)
        shrink = len(self.words[k][0]) - len(new)
        for i in range(len(self.lengths)):
            self.lengths[i] -= shrink * f[i]
        self.words[k][0] = new

    def merge(self, pair: tuple) -> tuple:
        """Merge ``pair`` in every word; returns the undo record: (rows changed with their old words, the
        pair's dropped count vector)."""
        a, b = pair
        changed = []
        for k in sorted(self.where.pop(pair, ())):
            w, f = self.words[k]
            new, delta = _merge_word(w, a, b)
            if len(new) == len(w):
                continue
            changed.append((k, w))
            self._shift(k, new, delta, 1, f)
        return changed, self.pairs.pop(pair, None)

    def unmerge(self, pair: tuple, record: tuple) -> None:
        """Take back the merge of ``pair`` whose :meth:`merge` returned ``record``, exactly (pairs whose
        count the merge created and the undo brought back to zero are dropped)."""
        changed, dropped = record
        if dropped is not None:
            self.pairs[pair] = dropped
        gone = set()
        for k, old in reversed(changed):
            new, f = self.words[k]
            self._shift(k, old, _merge_word(old, *pair)[1], -1, f)
            gone.update(zip(new, new[1:]))
        for p in gone:
            c = self.pairs.get(p)
            if c is not None and not any(c):
                del self.pairs[p]
                self.where.pop(p, None)

    def best(self, col: int):
        pairs = self.pairs
        return max(pairs, key=lambda p: (pairs[p][col], p), default=None)

    def top(self, col: int, k: int) -> list:
        """The ``k`` pairs :meth:`best` would take first, best first."""
        pairs = self.pairs
        return heapq.nlargest(k, pairs, key=lambda p: (pairs[p][col], p))


class ParityBPE:
    """Step-wise parity-aware BPE over per-language training (and dev) word counts.

    >>> t = ParityBPE([{("a", "b"): 3, ("c", "d"): 1}, {("c", "d"): 2}],
    ...               dev=[{("a", "b"): 1}, {("c", "d"): 2}])
    >>> s = t.step(); (s.pair, s.lang, s.lengths, s.freq)
    (('c', 'd'), 1, [2, 4], [1, 2])
    >>> t.dev_lengths
    [2, 2]
    """

    def __init__(self, train: list, dev: list | None = None, variant: str = "base", window_size: int = 100,
                 alpha: float = 2.0, global_merges: int = 0, ratio: list | None = None, min_frequency: int = 2):
        self.n = len(train)
        self.train = _Table(train, with_sum=global_merges > 0)
        self.dev = _Table(dev, with_sum=False) if dev is not None else None
        self.variant, self.window_size, self.alpha = variant, window_size, alpha
        self.global_merges, self.min_frequency = global_merges, min_frequency
        self.ratio = [r / ratio[0] for r in ratio] if ratio else None
        self.initial = list(self.train.lengths)
        self.picked: list = []  # the languages the window variant chose, in order (its window: the last W)
        self.merges: list = []
        self._undo: list = []  # per merge: (train record, dev record, whether it joined the window)
        #: the training rows the last merge changed (indexes into ``train.words``)
        self.last_changed: list = []

    @property
    def dev_lengths(self) -> list:
        return list(self.dev.lengths) if self.dev else None

    def _lengths(self) -> list:
        return list(self.train.lengths if self.ratio else self.dev.lengths)

    def _choose(self, lengths: list) -> int:
        if len(self.merges) < self.global_merges:
            return -1
        if self.ratio:
            scores = [self.initial[i] / lengths[i] / self.ratio[i] for i in range(self.n)]
            return min(range(self.n), key=lambda i: scores[i])
        if self.variant == "window":
            ncols = self.train.width
            window = self.picked[-self.window_size:] if self.window_size > 0 else []
            left = list(range(self.n))
            while left:
                i = max(left, key=lambda j: (lengths[j], -j))
                if window.count(i) / self.window_size <= self.alpha / ncols:
                    return i
                left.remove(i)
            return max(range(self.n), key=lambda j: (lengths[j], -j))
        return max(range(self.n), key=lambda j: (lengths[j], -j))

    def next_language(self) -> int:
        """The language the next merge is chosen for (-1: by the summed count)."""
        return self._choose(self._lengths())

    def column(self, lang: int) -> int:
        """The column of the pair counts that language ``lang`` (-1: the sum) reads."""
        return self.n if lang < 0 else lang

    def step(self, pair: tuple | None = None) -> ParityStep | None:
        """Make one merge; None when the chosen language has no pair of count >= min_frequency.

        ``pair``: merge it instead of the chosen language's best pair (it must occur in the training text).
        """
        lengths = self._lengths()
        lang = self._choose(lengths)
        col = self.column(lang)
        if pair is None:
            pair = self.train.best(col)
            if pair is None or self.train.pairs[pair][col] < self.min_frequency:
                return None
        elif not any(self.train.pairs.get(pair, ())):
            raise ValueError(f"the pair {pair} does not occur")
        freq = list(self.train.pairs[pair])
        joined = self.variant == "window" and lang >= 0
        if joined:
            self.picked.append(lang)
        record = self.train.merge(pair)
        self.last_changed = [k for k, _ in record[0]]
        self._undo.append((record, self.dev.merge(pair) if self.dev else None, joined))
        self.merges.append(pair)
        return ParityStep(pair, lang, lengths, freq)

    def undo(self) -> tuple | None:
        """Take the last merge back exactly; returns its pair (None at the start)."""
        if not self.merges:
            return None
        pair = self.merges.pop()
        record, dev_record, joined = self._undo.pop()
        if joined:
            self.picked.pop()
        self.train.unmerge(pair, record)
        if dev_record is not None:
            self.dev.unmerge(pair, dev_record)
        self.last_changed = [k for k, _ in record[0]]
        return pair
