"""Immutable records shared by the trainer, the encoder, the formats and the app.

Everything the GUI sees of the core is one of these frozen dataclasses, so a pane can keep
a reference to a step or an encoding without it changing underneath.

Token values ("raw" tokens) are ``str`` for character-level models and ``bytes`` for
byte-level ones; ``display`` strings are what a person reads (GPT-2 byte glyphs such as
``Ġthe`` for byte-level tokens, the token itself for characters).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional, Tuple, Union

__all__ = ["Raw", "Unit", "TieBreak", "TIE_BREAKS", "TIE_RULES", "EncodeMode", "FileDecoding", "TrainerConfig", "TrainingStats", "Removal", "VARIANTS",
           "WordChange", "PairCount", "MergeStep", "EncodedToken", "Encoding", "TokenInfo", "Progress", "Cancelled",
           "BPELensError", "Piece"]

Raw = Union[str, bytes]
Unit = Literal["chars", "bytes"]
TieBreak = Literal["first-seen", "hf", "lexicographic", "table-order"]
TIE_BREAKS: Tuple[str, ...] = ("first-seen", "hf", "lexicographic")
#: every tie rule a config may name: TIE_BREAKS, whose pick the state decides, and "table-order" (the pair that
#: entered the pair table first: PickyBPE's reference; training/table_order.py), which needs the run's history
TIE_RULES: Tuple[str, ...] = TIE_BREAKS + ("table-order",)
#: the training rules (``TrainerConfig.variant``)
VARIANTS: Tuple[str, ...] = ("bpe", "picky", "superbpe", "parity")
EncodeMode = Literal["merges", "seed000-greedy"]
FileDecoding = Literal["text", "tokenizers"]


@dataclass(frozen=True, kw_only=True)
class TrainerConfig:
    """How to turn a corpus into words and how to learn merges from them.

    Parameter names follow Hugging Face ``tokenizers`` where one exists.

    >>> TrainerConfig(pretokenizer="whitespace", end_of_word_suffix="</w>").unit
    'chars'
    """

    preset: str = "custom"
    #: name of a pre-tokenizer in :data:`bpe_core.pretokenize.pretokenizers.PRETOKENIZERS`
    pretokenizer: str = "whitespace"
    #: the user pattern when ``pretokenizer == "regex"``
    pattern: Optional[str] = None
    #: lowercase the text before pre-tokenizing (training)
    lowercase: bool = False
    #: lowercase each word after pre-tokenizing (seed 003's literal order: GPT-2's ``Ġ`` becomes ``ġ``)
    lowercase_words: bool = False
    #: lowercase when encoding; ``None`` means "same as training" (``lowercase``, ``lowercase_words``)
    lowercase_encode: Optional[bool] = None
    unit: Unit = "chars"
    #: appended to every word as a separate initial symbol (the seeds' ``</w>``); "" for none
    end_of_word_suffix: str = ""
    #: words whose pre-tokenizer kind is listed here get no suffix (cjk: Han chars, punctuation)
    vocab_size: Optional[int] = None
    num_merges: Optional[int] = None
    #: stop when the best pair's count is below this (HF semantics; 0 = never)
    min_frequency: int = 0
    #: drop words seen fewer times than this before training (seed 000's ``mincount``)
    min_word_count: int = 1
    tie_break: TieBreak = "first-seen"
    special_tokens: Tuple[str, ...] = ()
    #: where special tokens go in the id space: before or after the initial alphabet
    specials_position: Literal["first", "after-alphabet"] = "first"
    #: id order of the initial symbols: by code point / byte value, or by first appearance
    alphabet_order: Literal["sorted", "first-seen"] = "sorted"
    #: byte-level: start from all 256 bytes (GPT-2, seed 001) rather than only bytes seen
    full_byte_alphabet: bool = False
    #: how ``vocab_size`` is counted: distinct tokens (HF, seed 001) or alphabet + merges (seed 002)
    vocab_size_counts: Literal["distinct", "merges"] = "distinct"
    encode_mode: EncodeMode = "merges"
    #: encoding: keep a character the vocabulary lacks as a token (id -1) like the seeds' tokenize,
    #: rather than dropping it like tokenizers
    keep_unknown: bool = False
    #: how corpus files are read: "text" = Python's text mode, as the seeds' ``open()`` (``\r\n`` and
    #: ``\r`` become ``\n``, a BOM is dropped); "tokenizers" = as HF ``tokenizers`` reads training
    #: files (the bytes as they are: ``\r`` and a BOM stay in the text, lines end at ``\n``)
    file_decoding: FileDecoding = "text"
    #: the training rule (docs/variants.md): "bpe" (plain), "picky" (PickyBPE: removes a merged token whose
    #: IoS exceeds ``ios_threshold``), "superbpe" (plain up to ``transition`` merges, then merges across
    #: whitespace), "parity" (parity-aware BPE over per-language corpora, ``parity_*`` settings)
    variant: str = "bpe"
    #: PickyBPE's threshold τ: a parent whose Intersection over Self is above it is removed (1.0: never)
    ios_threshold: float = 0.9
    #: SuperBPE's transition point t: the merges of stage 1 (plain BPE); None for other rules
    transition: Optional[int] = None
    #: parity-aware BPE: how the language is chosen ("base", "window", "hybrid", "ratio"), as the reference's options
    parity_mode: str = "base"
    #: parity-aware BPE "window": the moving window's size and alpha; "hybrid": global merges first
    parity_window: int = 100
    parity_alpha: float = 2.0
    parity_global_merges: int = 0

    @property
    def encode_lowercase(self) -> bool:
        return self.lowercase if self.lowercase_encode is None else self.lowercase_encode


@dataclass(frozen=True)
class TrainingStats:
    """Running statistics after a step (or at step 0)."""

    merges: int
    vocab_size: int
    total_tokens: int  # sum over words of freq * len(segmentation) (suffix symbols included)
    total_words: int  # sum of word frequencies
    total_units: int  # chars (or bytes) of all words, suffix excluded

    @property
    def tokens_per_word(self) -> float:
        """Tokens per *piece*: ``total_words`` counts the trainer's pre-tokenizer pieces, which cannot tell where
        a whitespace word starts (GPT-2 cuts "don't" in two, a Tamil word at each mark), so this is not the
        Measures chart's tokens per word. The name stays for the API; the app divides ``total_tokens`` by the
        text's words when it has the text and says "tokens/piece" when it has not (docs/measures.md, Groups)."""
        return self.total_tokens / self.total_words if self.total_words else 0.0

    @property
    def units_per_token(self) -> float:
        return self.total_units / self.total_tokens if self.total_tokens else 0.0


@dataclass(frozen=True)
class WordChange:
    """One word's segmentation before and after a merge (token ids)."""

    word_index: int
    word: str  # display form of the word
    freq: int
    before: Tuple[int, ...]
    after: Tuple[int, ...]


@dataclass(frozen=True)
class PairCount:
    left: int
    right: int
    count: int


@dataclass(frozen=True)
class MergeStep:
    """What one merge did. ``rank`` is 1-based: the k-th merge.

    >>> from bpe_core.training.trainer import Trainer
    >>> step = Trainer({"aab": 2}, TrainerConfig()).step()
    >>> step.rank, step.left_token, step.right_token, step.new_token, step.count, step.changed_words
    (1, 'a', 'a', 'aa', 2, (0,))
    """

    rank: int
    left: int
    right: int
    new_id: int
    left_token: Raw
    right_token: Raw
    new_token: Raw
    count: int
    #: False when the merged token already existed (two merges spelling the same token)
    created: bool
    #: indices (into the trainer's word table) of every word this merge changed
    changed_words: Tuple[int, ...]
    #: before/after of the most frequent changed words (at most ``Trainer.EXAMPLES``)
    examples: Tuple[WordChange, ...]
    #: (left, right, new_count) for every pair whose count changed, the merged pair included
    changed_pairs: Tuple[Tuple[int, int, int], ...]
    stats: TrainingStats
    #: tokens a training rule removed right after this merge (PickyBPE), in the order removed; their
    #: words are in ``changed_words`` too
    removals: Tuple["Removal", ...] = ()


@dataclass(frozen=True)
class Removal:
    """A token removed by a training rule right after a merge (PickyBPE).

    Every remaining occurrence of ``token_id`` was replaced by ``split`` (the present tokens of its merge
    tree); ``freq`` is its frequency before the merge and ``merged`` how much of it the merge used, so
    IoS = merged / freq (it exceeded the threshold).

    >>> Removal(5, b"ab", (0, 1), 10, 9).ios
    0.9
    """

    token_id: int
    token: Raw
    split: Tuple[int, ...]
    freq: int
    merged: int

    @property
    def ios(self) -> float:
        return self.merged / self.freq if self.freq else 1.0


@dataclass(frozen=True)
class EncodedToken:
    """One token of an encoding; ``start``/``end`` index the *input* text (characters)."""

    id: int
    raw: Raw
    display: str
    start: int
    end: int
    special: bool = False


@dataclass(frozen=True)
class Encoding:
    tokens: Tuple[EncodedToken, ...]

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.tokens]

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True)
class TokenInfo:
    """A vocabulary entry as an inspector shows it."""

    id: int
    raw: Raw
    display: str
    #: 1-based rank of the merge that created it, or None for base symbols / specials
    rank: Optional[int] = None
    #: ids of the two tokens merged into this one (the first merge that made it)
    parts: Optional[Tuple[int, int]] = None
    special: bool = False


@dataclass(frozen=True)
class Progress:
    """Progress report passed to callbacks: ``done`` of ``total`` in ``unit``."""

    done: int
    total: int
    unit: str = "bytes"
    message: str = ""


class Cancelled(Exception):
    """Raised by long operations when their ``cancel`` callable returns True."""


class BPELensError(Exception):
    """A problem with the user's input; the message is shown to the user as is.

    >>> from bpe_core.presets import make_config
    >>> make_config("no-such-preset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_core.types.BPELensError: unknown preset 'no-such-preset'; choose one of: nltk-wordpunct, byte-ascii, ...
    """


@dataclass(frozen=True)
class Piece:
    """A pre-token: ``text`` (after normalization) and its span in the original input.

    ``special`` is the id of a special/added token when this piece is one.
    ``kind`` lets a pre-tokenizer tag pieces (the CJK splitter marks which get ``</w>``).
    """

    text: str
    start: int
    end: int
    special: Optional[int] = None
    suffix: bool = True
    meta: dict = field(default_factory=dict, compare=False, hash=False)
