"""The text pipeline of a model trained here: specials, lowercase, pre-tokenizer.

It cuts text into :class:`~bpe_core.types.Piece` objects whose spans index the input, and
says what each piece's initial symbols are (the pre-tokenizer decides: the CJK splitter gives
Han characters no ``</w>``).

>>> from bpe_core.types import TrainerConfig
>>> p = TrainerPipeline(TrainerConfig(pretokenizer="whitespace"), {"<s>": 0})
>>> [(x.text, x.start, x.end, x.special) for x in p.split("ab <s>cd")]
[('ab', 0, 2, None), ('<s>', 3, 6, 0), ('cd', 6, 8, None)]
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence, Union

from bpe_core.types import Piece, Raw, TrainerConfig


class TrainerPipeline:
    """A :class:`~bpe_core.pipelines.base.TextPipeline` whose pre-tokenizer decides each piece's symbols."""

    decides_symbols = True

    def __init__(self, config: TrainerConfig, specials: Dict[str, int]) -> None:
        from bpe_core.pretokenize.pretokenizers import get_pretokenizer
        self.config = config
        self.specials = dict(specials)
        self.pretokenizer = get_pretokenizer(config)
        names = sorted(self.specials, key=len, reverse=True)  # longest first: "<|endoftext|>" before "<"
        self._special_re = re.compile("|".join(re.escape(n) for n in names)) if names else None

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
            from bpe_core.pretokenize.pretokenizers import lowercase_with_offsets
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

    def initial_symbols(self, piece_text: str) -> Sequence[Raw]:
        """The pre-tokenizer decides (the CJK splitter gives Han characters no ``</w>``)."""
        return self.pretokenizer.word_symbols(piece_text, self.config)

    def matched_specials(self) -> Dict[str, int]:
        return dict(self.specials)
