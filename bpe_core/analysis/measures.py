"""The measures people choose a tokenizer by, from a token-frequency table and the size of the text it encodes.

Every function here takes what one encoding of an evaluation text leaves behind: ``counts`` (token id -> how
often the encoder emitted it on that text) and the text's :class:`TextSize` (UTF-8 bytes, characters,
whitespace-separated words). Nothing here encodes or trains: the curves over vocabulary size keep ``counts``
up to date merge by merge and call these functions at every k-th merge, so each measure has one home.
docs/measures.md defines each one with its source paper and tells how to read the curves.

>>> counts = {7: 3, 8: 1}                     # "aaab": token 7 three times, token 8 once
>>> size = text_size("aa ab")
>>> (bytes_per_token(counts, size), tokens_per_100_chars(counts, size), tokens_per_word(counts, size))
(1.25, 80.0, 2.0)
>>> round(renyi_efficiency(counts), 6)
0.631928
>>> gini([10, 10, 10]), gini([0, 0, 30])
(0.0, 0.6666666666666666)
>>> parity({"eng": 100, "deu": 125, "tha": 300}, reference="eng")
{'eng': 1.0, 'deu': 1.25, 'tha': 3.0}
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Iterable, Mapping, Optional, Sequence

from bpe_core.types import BPELensError

Counts = Mapping[int, int]  # token id -> times emitted on the evaluation text

#: Zouhar et al. (2023) found alpha = 2.5 the order whose efficiency best predicts BLEU
DEFAULT_ALPHA = 2.5
#: a used token is under-used below this share of the count it would have if every token were used equally
UNDER_USED_SHARE = 0.1


@dataclass(frozen=True)
class TextSize:
    """The evaluation text's size: UTF-8 bytes, characters (code points) and words (``str.split()`` pieces)."""

    bytes: int
    chars: int
    words: int


def text_size(text: str) -> TextSize:
    """The size of ``text``; a word is a maximal run of non-whitespace (what ``str.split()`` returns).

    >>> text_size("naïve  café\\n")
    TextSize(bytes=14, chars=12, words=2)
    """
    return TextSize(len(text.encode("utf-8", "surrogatepass")), len(text), len(text.split()))


def total_tokens(counts: Counts) -> int:
    """The number of tokens the text was encoded into; a negative count is refused."""
    total = 0
    for token, n in counts.items():
        if n < 0:
            raise BPELensError(f"token {token} has a negative count ({n})")
        total += n
    return total


def _per(numerator: float, denominator: int, what: str) -> float:
    if denominator <= 0:
        raise BPELensError(f"no {what} to measure by: the evaluation text is empty")
    return numerator / denominator


def bytes_per_token(counts: Counts, size: TextSize) -> float:
    """UTF-8 bytes of the text per token (higher: fewer tokens for the same text). The compression measure
    of Gallé (2019) and of most tokenizer reports; for a byte-level BPE it is the mean byte length of the
    emitted tokens."""
    return size.bytes / _need_tokens(counts)


def tokens_per_100_chars(counts: Counts, size: TextSize) -> float:
    """Tokens per 100 characters of text (lower: cheaper). Comparable across scripts with and without
    spaces, unlike tokens per word (Rust et al. 2021 report both)."""
    return 100.0 * _per(total_tokens(counts), size.chars, "characters")


def tokens_per_word(counts: Counts, size: TextSize) -> float:
    """Tokens per whitespace-separated word: *fertility* (Rust et al., "How Good is Your Tokenizer?",
    ACL 2021; their words are Universal Dependencies' word segmentation, ours are whitespace-separated).
    Meaningless for text written without spaces (Chinese, Japanese, Thai): read tokens per 100 characters there."""
    return _per(total_tokens(counts), size.words, "words")


def _need_tokens(counts: Counts) -> int:
    total = total_tokens(counts)
    if total == 0:
        raise BPELensError("no tokens to measure: the evaluation text encodes to nothing")
    return total


def renyi_entropy(counts: Counts, alpha: float = DEFAULT_ALPHA) -> float:
    """The Rényi entropy of order ``alpha`` (bits) of the token distribution: log2(sum p^alpha) / (1 - alpha);
    Shannon's entropy at alpha = 1 (Rényi 1961). ``renyi_entropy`` of zouharvi/tokenization-scorer."""
    if not alpha > 0 or math.isinf(alpha):
        raise BPELensError(f"the Rényi order must be a positive number, not {alpha}")
    total = _need_tokens(counts)
    ns = [n for n in counts.values() if n]
    if alpha == 1.0:
        return -math.fsum(n / total * math.log2(n / total) for n in ns)
    power_sum = math.fsum((n / total) ** alpha for n in ns)
    return math.log2(power_sum) / (1.0 - alpha)


def renyi_efficiency(counts: Counts, alpha: float = DEFAULT_ALPHA, vocab_size: Optional[int] = None) -> float:
    """Rényi efficiency: the Rényi entropy of order ``alpha`` of the token distribution divided by log2 of the
    vocabulary size, in [0, 1]; 1 when every token is used equally often (Zouhar et al., "Tokenization and
    the Noiseless Channel", ACL 2023; alpha = 2.5 correlated 0.78 with BLEU, compressed length -0.32).

    Exactly as zouharvi/tokenization-scorer 1.1.8 computes ``metric="renyi"`` with ``power=alpha`` (and
    ``vocab=vocab_size`` when given): the vocabulary size is by default the number of *distinct tokens the
    text uses*, not the tokenizer's size. At alpha = 1 it is Shannon efficiency (the scorer's
    ``shannon_efficiency``; its ``renyi`` at power 1.0 returns 0.0, a bug there). One distinct token gives
    0/0: NaN, as the scorer's numpy does.

    >>> round(renyi_efficiency({0: 3, 1: 1, 2: 2, 3: 1}), 10)   # the scorer's own example, 'pick @@ed ...'
    0.8265064834
    """
    entropy = renyi_entropy(counts, alpha)
    used = sum(1 for n in counts.values() if n)
    size = used if vocab_size is None else vocab_size
    if size < used:
        raise BPELensError(f"vocabulary size {size} is smaller than the {used} distinct tokens the text uses")
    return entropy / math.log2(size) if size > 1 else math.nan


def gini(values: Iterable[float]) -> float:
    """The Gini coefficient of non-negative values (Gini 1912): the mean absolute difference of all pairs over
    twice the mean, sum |x_i - x_j| / (2 n sum x). 0 when all are equal, (n - 1) / n when one holds all;
    scale-free (costs or parities give the same value). Over the per-language costs of a parallel text it is
    the inequality figure of parity-aware BPE (Foroutan et al. 2025). Fewer than one value or a zero sum is
    refused.

    >>> gini([1, 3])
    0.25
    """
    xs = sorted(float(v) for v in values)
    if any(x < 0 or math.isnan(x) for x in xs):
        raise BPELensError("the Gini coefficient takes non-negative numbers")
    n, total = len(xs), math.fsum(xs)
    if n == 0 or total == 0:
        raise BPELensError("the Gini coefficient needs at least one value and a positive sum")
    # sum over pairs |x_i - x_j| = 2 * sum_i (2i - n + 1) x_i for sorted x (i from 0): linear after the sort
    return 2 * math.fsum((2 * i - n + 1) * x for i, x in enumerate(xs)) / (2 * n * total)


def parity(costs: Mapping[str, float], reference: str) -> Dict[str, float]:
    """Each language's cost relative to ``reference``'s on a parallel text: tokens(language) / tokens(reference),
    the *tokenization premium* of Petrov et al., "Language Model Tokenizers Introduce Unfairness Between
    Languages" (NeurIPS 2023); 1.0 is parity, 3.0 means the same content costs three times as many tokens.
    Costs are totals over the whole parallel text, as the authors' code computes them (their
    compute/compute_tokenizations.py encodes each language's FLORES-200 sentences joined into one string and
    divides the lengths), not a mean of per-sentence ratios."""
    if reference not in costs:
        raise BPELensError(f"the reference language {reference!r} is not among {sorted(costs)}")
    base = costs[reference]
    if base <= 0:
        raise BPELensError(f"the reference language {reference!r} costs no tokens")
    return {lang: cost / base for lang, cost in costs.items()}


def language_costs(counts_by_language: Mapping[str, Counts]) -> Dict[str, int]:
    """Each language's cost: the tokens its text was encoded into (the sum of its token table)."""
    return {lang: total_tokens(c) for lang, c in counts_by_language.items()}


@dataclass(frozen=True)
class VocabularyUse:
    """How much of the vocabulary a text uses: ``used`` tokens emitted at least once, ``under_used`` (a part of
    ``used``) emitted fewer than ``under_used_below`` times, ``dead`` the vocabulary's tokens never emitted."""

    vocab_size: int
    used: int
    under_used: int
    dead: int
    under_used_below: float


def vocabulary_use(counts: Counts, vocab_size: int, share: float = UNDER_USED_SHARE) -> VocabularyUse:
    """Used, under-used and dead tokens of a ``vocab_size`` vocabulary on the text behind ``counts``.

    *Under-used*: emitted, but fewer than ``share`` x (tokens / vocab_size) times, i.e. less than a tenth (by
    default) of the count every token would get if the vocabulary were used evenly - the ideal of Rényi
    efficiency. Relative, so it means the same on a small and a large text (a text shorter than the
    vocabulary, whose even count is below 10, has no under-used tokens: it is too short to tell). Why it
    matters: such tokens hold a vocabulary slot and an embedding row that training rarely updates -
    under-trained tokens (Land and Bartolo, "Fishing for Magikarp", 2024) and merge residues, tokens mostly
    consumed by later merges (LiteToken, arXiv 2602.04706). *Dead* here is "never emitted on this text";
    the health view splits it further (merge never fires, consumed, unreachable).

    >>> vocabulary_use({0: 50, 1: 49, 2: 1}, vocab_size=4)
    VocabularyUse(vocab_size=4, used=3, under_used=1, dead=1, under_used_below=2.5)
    """
    if not 0 <= share:
        raise BPELensError(f"the under-used share must be >= 0, not {share}")
    total = total_tokens(counts)
    used_counts = [n for n in counts.values() if n]
    if len(used_counts) > vocab_size:
        raise BPELensError(f"the text uses {len(used_counts)} distinct tokens, more than the vocabulary's {vocab_size}")
    below = share * total / vocab_size if vocab_size else 0.0
    under = sum(1 for n in used_counts if n < below)
    return VocabularyUse(vocab_size, len(used_counts), under, vocab_size - len(used_counts), below)


@dataclass(frozen=True)
class TextMeasures:
    """One evaluation text's measures under one tokenizer (one point of every curve)."""

    tokens: int
    bytes_per_token: float
    tokens_per_100_chars: float
    tokens_per_word: float
    renyi_efficiency: float


def text_measures(counts: Counts, size: TextSize, alpha: float = DEFAULT_ALPHA) -> TextMeasures:
    """All the per-text measures at once (tokens per word is 0.0 for a text without words)."""
    tokens = _need_tokens(counts)
    per_word = tokens / size.words if size.words else 0.0
    return TextMeasures(tokens, bytes_per_token(counts, size), tokens_per_100_chars(counts, size), per_word,
                        renyi_efficiency(counts, alpha))


def parity_gini(costs: Mapping[str, float], languages: Optional[Sequence[str]] = None) -> float:
    """The Gini coefficient of the per-language costs (of ``languages`` when given, all otherwise)."""
    names = list(costs) if languages is None else list(languages)
    missing = [n for n in names if n not in costs]
    if missing:
        raise BPELensError(f"no cost for language(s) {', '.join(missing)}")
    return gini(costs[n] for n in names)


class RenyiTally:
    """Rényi efficiency kept up to date while token counts change: the curves over the merges call
    :meth:`add` for each token whose count a merge changes and read :meth:`efficiency` every k merges.

    It keeps the total, the number of distinct tokens and the power sum sum(c^alpha) (sum(c log2 c) at alpha = 1)
    with compensated (Neumaier) summation, so a change costs two terms and a reading none, and the value stays
    equal to :func:`renyi_efficiency` of the current table (tests: to 1e-9 after 200,000 changes). ``terms``
    counts the terms computed (work, for the tests).

    >>> t = RenyiTally({0: 3, 1: 1, 2: 2})
    >>> t.add(3, 1); round(t.efficiency(), 10) == round(renyi_efficiency({0: 3, 1: 1, 2: 2, 3: 1}), 10)
    True
    """

    def __init__(self, counts: Optional[Counts] = None, alpha: float = DEFAULT_ALPHA):
        if not alpha > 0 or math.isinf(alpha):
            raise BPELensError(f"the Rényi order must be a positive number, not {alpha}")
        self.alpha = alpha
        self.counts: Dict[int, int] = {}
        self.total = 0
        self.terms = 0
        self._sum = 0.0
        self._carry = 0.0
        for token, n in (counts or {}).items():
            self.add(token, n)

    @property
    def distinct(self) -> int:
        """Tokens with a count above 0."""
        return len(self.counts)

    def _term(self, n: int) -> float:
        self.terms += 1
        if n == 0:
            return 0.0
        return n * math.log2(n) if self.alpha == 1.0 else float(n) ** self.alpha

    def _accumulate(self, x: float) -> None:
        s = self._sum + x
        if abs(self._sum) >= abs(x):
            self._carry += (self._sum - s) + x
        else:
            self._carry += (x - s) + self._sum
        self._sum = s

    def add(self, token: int, delta: int) -> None:
        """Token ``token``'s count changes by ``delta`` (negative: fewer); below 0 is refused, nothing changed."""
        if not delta:
            return
        old = self.counts.get(token, 0)
        new = old + delta
        if new < 0:
            raise BPELensError(f"token {token}'s count would go below 0 ({old} {delta:+d})")
        self._accumulate(self._term(new))
        self._accumulate(-self._term(old))
        self.total += delta
        if new:
            self.counts[token] = new
        else:
            del self.counts[token]

    def entropy(self) -> float:
        """The Rényi entropy (bits) of the current table, as :func:`renyi_entropy`."""
        if self.total <= 0:
            raise BPELensError("no tokens to measure: the evaluation text encodes to nothing")
        power_sum, log_total = self._sum + self._carry, math.log2(self.total)
        if self.alpha == 1.0:
            return log_total - power_sum / self.total
        return (math.log2(power_sum) - self.alpha * log_total) / (1.0 - self.alpha)

    def efficiency(self, vocab_size: Optional[int] = None) -> float:
        """Rényi efficiency of the current table, as :func:`renyi_efficiency` (``vocab_size`` the same way)."""
        entropy = self.entropy()
        size = self.distinct if vocab_size is None else vocab_size
        if size < self.distinct:
            raise BPELensError(f"vocabulary size {size} is smaller than the {self.distinct} distinct tokens "
                               "the text uses")
        return entropy / math.log2(size) if size > 1 else math.nan
