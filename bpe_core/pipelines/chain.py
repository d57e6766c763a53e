"""One text pipeline for the trainer and the encoder: normalizer -> pre-tokenizer -> unit mapper.

As in Hugging Face ``tokenizers``, where one normalizer, pre-tokenizer and model serve both
training and encoding, a :class:`Pipeline` built from a :class:`~bpe_core.types.TrainerConfig`
is what the corpus counter cuts words with (:meth:`Pipeline.words_in_lines`), what the trainer
starts each counted word from (:meth:`Pipeline.initial_symbols`, the unit mapper
:class:`~bpe_core.base.units.Units`), and the pipeline of every model trained here, through which
the encoder cuts text into pieces with spans (:meth:`Pipeline.split`) and starts each piece from
the same unit mapper (:attr:`bpe_core.model.BPEModel.units`).

The normalizer lowercases. Training lowercases when ``config.lowercase``; encoding when
``config.encode_lowercase`` (seed 003 trains on lowercased text and encodes text as given). Special
tokens are cut out of text whole when encoding; the corpus counter counts them as text.

>>> from bpe_core.types import TrainerConfig
>>> p = Pipeline(TrainerConfig(pretokenizer="whitespace", end_of_word_suffix="</w>"), {"<s>": 0})
>>> [(x.text, x.start, x.end, x.special) for x in p.split("ab <s>cd")]
[('ab', 0, 2, None), ('<s>', 3, 6, 0), ('cd', 6, 8, None)]
>>> p.words("ab cd"), p.initial_symbols("ab")
(['ab', 'cd'], ['a', 'b', '</w>'])
"""
from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from bpe_core.base.units import Units
from bpe_core.pretokenize.base import PreTokenizer, lowercase_with_offsets
from bpe_core.pretokenize.pretokenizers import get_pretokenizer
from bpe_core.types import Piece, Raw, TrainerConfig


def units_of(config: TrainerConfig, pretokenizer: PreTokenizer) -> Units:
    """The unit mapper a config and its pre-tokenizer make: the config's unit and separate suffix,
    the pre-tokenizer's rule for which words take that suffix.

    >>> units_of(TrainerConfig(unit="bytes"), get_pretokenizer(TrainerConfig())).symbols("é")
    [b'\\xc3', b'\\xa9']
    """
    refusal = None
    if config.unit == "bytes" and pretokenizer.chars_only:
        refusal = f"the {pretokenizer.name!r} pre-tokenizer works on characters; set the unit to 'chars'"
    elif config.unit == "bytes" and config.end_of_word_suffix:
        refusal = f"an end-of-word suffix ({config.end_of_word_suffix!r}) needs unit 'chars', not 'bytes'"
    return Units(config.unit, end_of_word_suffix=config.end_of_word_suffix, takes_suffix=pretokenizer.takes_suffix,
                 refusal=refusal)


class Pipeline:
    """The text pipeline of a config (a :class:`~bpe_core.pipelines.base.TextPipeline` that decides
    each piece's symbols): the trainer's words and the encoder's pieces, one chain."""

    decides_symbols = True

    def __init__(self, config: TrainerConfig, specials: Optional[Dict[str, int]] = None, *,
                 pretokenizer: Optional[PreTokenizer] = None, units: Optional[Units] = None) -> None:
        self.config = config
        self.specials = dict(specials or {})
        self.pretokenizer = pretokenizer or get_pretokenizer(config)
        self.units = units or units_of(config, self.pretokenizer)
        names = sorted(self.specials, key=len, reverse=True)  # longest first: "<|endoftext|>" before "<"
        self._special_re = re.compile("|".join(re.escape(n) for n in names)) if names else None

    def with_specials(self, specials: Dict[str, int]) -> "Pipeline":
        """The same chain (the same pre-tokenizer and unit mapper) cutting ``specials`` out when encoding."""
        return Pipeline(self.config, specials, pretokenizer=self.pretokenizer, units=self.units)

    # -- the trainer's side: words to count, and the symbols each starts from -----------------
    @property
    def per_line(self) -> bool:
        """False for a pre-tokenizer that needs the whole text (Punkt's sentences)."""
        return self.pretokenizer.per_line

    @property
    def cut_at_space(self) -> bool:
        """See :class:`~bpe_core.pretokenize.base.PreTokenizer`: where a reader may cut a long line."""
        return self.pretokenizer.cut_at_space

    @property
    def guarded(self) -> bool:
        """True for a user's pattern (its splits run with a timeout)."""
        return self.pretokenizer.guarded

    def normalize(self, text: str) -> str:
        """The training normalizer: ``text`` lowercased when ``config.lowercase``."""
        return text.lower() if self.config.lowercase else text

    def words(self, text: str) -> List[str]:
        """The words of ``text`` the trainer counts (normalized, then pre-tokenized as one sequence)."""
        return self.pretokenizer.words(self.normalize(text))

    def words_in_lines(self, text: str) -> List[str]:
        """:meth:`words` of every line of ``text`` (the corpus counter's hot path)."""
        return self.pretokenizer.words_in_lines(self.normalize(text))

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        """:meth:`words` in batches with the position reached in the normalized text (for progress)."""
        return self.pretokenizer.iter_words(self.normalize(text))

    def initial_symbols(self, piece_text: str) -> Sequence[Raw]:
        """A word's initial symbols: the unit mapper (the CJK splitter gives Han runs no ``</w>``)."""
        return self.units.symbols(piece_text)

    # -- the encoder's side: pieces with spans -----------------------------------------------
    def split(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        pos = 0
        if self._special_re is not None:
            for m in self._special_re.finditer(text):
                self._split_plain(text, pos, m.start(), out)
                out.append(Piece(m.group(), m.start(), m.end(), special=self.specials[m.group()]))
                pos = m.end()
        self._split_plain(text, pos, len(text), out)
        return out

    def _split_plain(self, text: str, start: int, end: int, out: List[Piece]) -> None:
        if start >= end:
            return
        segment = text[start:end]
        if self.config.encode_lowercase:
            lowered, index = lowercase_with_offsets(segment)
            for p in self.pretokenizer.pieces(lowered):
                s = index[p.start] if p.start < len(index) else len(segment)
                e = index[p.end - 1] + 1 if p.end > p.start else s
                out.append(Piece(p.text, start + s, start + e, None, p.suffix, p.meta))
        else:
            for p in self.pretokenizer.pieces(segment):
                out.append(Piece(p.text, start + p.start, start + p.end, None, p.suffix, p.meta))

    def split_words(self, text: str) -> List[Union[str, int]]:
        """Piece texts and special ids; with nothing to cut out or lowercase, the pre-tokenizer's
        own ``words`` (its fast path, the words the trainer counted)."""
        if self._special_re is None and not self.config.encode_lowercase:
            return self.pretokenizer.words(text)  # type: ignore[return-value]
        return [p.text if p.special is None else p.special for p in self.split(text)]

    def matched_specials(self) -> Dict[str, int]:
        return dict(self.specials)

    def __repr__(self) -> str:
        return f"<Pipeline {self.pretokenizer.name} {self.units!r}>"
