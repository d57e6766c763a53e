"""Pre-tokenizers that re-present another one's words: as GPT-2 byte glyphs, or lowercased after
splitting (the HF course's literal order, seed 003)."""
from __future__ import annotations

from typing import Iterator, List, Tuple

from bpe_core.base.symbols import to_glyphs
from bpe_core.pretokenize.base import PreTokenizer
from bpe_core.types import Piece


class GlyphPreTokenizer(PreTokenizer):
    """GPT-2's words as the HF course sees them: each word's UTF-8 bytes as GPT-2 glyph characters.

    ``ByteLevel.pre_tokenize_str`` returns such strings (``" the"`` -> ``"Ġthe"``), and the course's code
    works on their *characters*. With ``lowercase_words`` (the course's literal order) ``str.lower`` then
    turns ``Ġ`` into ``ġ``; a model over these words has unit ``chars`` and glyph-string tokens. Each
    piece's ``meta["align"]`` maps its glyphs back to the characters they came from.
    """

    def __init__(self, name: str, description: str, inner: PreTokenizer) -> None:
        super().__init__(name, description, inner.pattern, cut_at_space=inner.cut_at_space)
        self.inner = inner

    def words(self, text: str) -> List[str]:
        return [to_glyphs(w.encode("utf-8")) for w in self.inner.words(text)]

    def words_in_lines(self, text: str) -> List[str]:
        return [to_glyphs(w.encode("utf-8")) for w in self.inner.words_in_lines(text)]

    def pieces(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for p in self.inner.pieces(text):
            align = [(p.start + i, p.start + i + 1) for i, ch in enumerate(p.text) for _ in ch.encode("utf-8")]
            out.append(Piece(to_glyphs(p.text.encode("utf-8")), p.start, p.end, meta={"align": align}))
        return out


class LowercasedWords(PreTokenizer):
    """Another pre-tokenizer's words, each lowercased after pre-tokenizing (``lowercase_words``).

    Seed 003's code does this (``word_freqs[word.lower()]``) on GPT-2 glyph words, where ``Ġ`` becomes
    ``ġ``; the ``lowercase`` setting lowercases the text before pre-tokenizing instead. ``pieces``
    lowercases only when encoding should (``lower_pieces``): the course's ``tokenize`` does not.
    """

    def __init__(self, inner: PreTokenizer, lower_pieces: bool) -> None:
        super().__init__(inner.name, inner.description, inner.pattern, guarded=inner.guarded)
        self.inner, self.lower_pieces = inner, lower_pieces
        self.per_line, self.line_local, self.cut_at_space = inner.per_line, inner.line_local, inner.cut_at_space
        self.chars_only = inner.chars_only

    def words(self, text: str) -> List[str]:
        return [w.lower() for w in self.inner.words(text)]

    def words_in_lines(self, text: str) -> List[str]:
        return [w.lower() for w in self.inner.words_in_lines(text)]

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        for end, words in self.inner.iter_words(text):
            yield end, [w.lower() for w in words]

    def pieces(self, text: str) -> List[Piece]:
        pieces = self.inner.pieces(text)
        if not self.lower_pieces:
            return pieces
        out = []
        for p in pieces:
            low = p.text.lower()
            meta = p.meta if len(low) == len(p.text) else {k: v for k, v in p.meta.items() if k != "align"}
            out.append(Piece(low, p.start, p.end, p.special, p.suffix, meta))
        return out

    def takes_suffix(self, word: str) -> bool:
        return self.inner.takes_suffix(word)
