"""Seed 001 (Byte-Pair Encoding, 實作): byte-level BPE with an ASCII-letter pre-tokenizer regex.

The seed's ``bpe.py`` with its indentation restored. Changes are marked ``# LENS:``:

- **duplicate tokens.** When a merge spells bytes that are already a token (two different merges making
  the same string), the seed does ``new_id = len(self.token_to_id)`` and ``self.token_to_id[new_token] =
  new_id``: the dict does not grow, the old id of that token is orphaned, and the *next* merge gets the same
  ``new_id`` again and overwrites ``id_to_token[new_id]`` while word symbols still hold that id — later
  merges then read the wrong bytes. The fix reuses the existing id and does not grow the vocabulary (as
  Hugging Face does); the merge is still recorded. ``BPE(reuse_duplicate_ids=False)`` runs the seed's
  code unchanged, for showing the bug.

  In this algorithm the branch is never taken: a word's segmentation is the merges applied in order, left
  to right, and a stretch of a word that ends up as two adjacent tokens ``X``, ``Y`` was segmented at every
  earlier step exactly as the string ``X+Y`` alone would be (no merge ever crossed its edges). So if
  ``X+Y`` had become a token at step j, this stretch would have been merged at step j too. The fix is kept
  as a guard; ``scripts/make_goldens.py`` checks that the vocabulary grew by one per merge.
- ``train`` also records each merge's count in ``merge_counts`` (records only).

Training input: the lines of a text file as Python's file iteration yields them (each keeps its ``"\\n"``).

>>> bpe = BPE()
>>> bpe.train(["the lowest price is lower than the last one"], vocab_size=259, min_frequency=2)
>>> [(bpe.id_to_token[a] + bpe.id_to_token[b], n) for (a, b), n in zip(bpe.merges, bpe.merge_counts)]
[(b'th', 3), (b' l', 3), (b'the', 2)]
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

PRETOKENIZE_PATTERN = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d|\s?[A-Za-z]+|\s?\d+|\s?[^A-Za-z\d\s]+|\s+")


class BPE:
    def __init__(self, reuse_duplicate_ids: bool = True):
        self.token_to_id: dict[bytes, int] = {bytes([i]): i for i in range(256)}
        self.id_to_token: dict[int, bytes] = {token_id: token for token, token_id in self.token_to_id.items()}
        self.merges: list[tuple[int, int]] = []
        self.merge_counts: list[int] = []  # LENS: record each merge's count
        self.reuse_duplicate_ids = reuse_duplicate_ids  # LENS: False = the seed's code as published

    def train(self, corpus: Iterable[str], vocab_size: int, min_frequency: int = 2):
        word_counts = Counter()
        for line in corpus:
            for token in self.pretokenize(line):
                b = token.encode("utf-8")
                if b:
                    word_counts[b] += 1

        word_symbols: dict[bytes, list[int]] = {word: list(word) for word in word_counts}

        while len(self.token_to_id) < vocab_size:
            pair_frequencies = Counter()
            for word, symbols in word_symbols.items():
                word_count = word_counts[word]
                for i in range(len(symbols) - 1):
                    pair_frequencies[symbols[i], symbols[i + 1]] += word_count

            if not pair_frequencies:
                break

            (symbol_left, symbol_right), pair_frequency = pair_frequencies.most_common(1)[0]
            if pair_frequency < min_frequency:
                break

            new_token = self.id_to_token[symbol_left] + self.id_to_token[symbol_right]
            if self.reuse_duplicate_ids and new_token in self.token_to_id:
                # LENS: the bytes are a token already: reuse its id, the vocabulary does not grow
                new_id = self.token_to_id[new_token]
            else:
                new_id = len(self.token_to_id)
                self.token_to_id[new_token] = new_id
                self.id_to_token[new_id] = new_token
            self.merges.append((symbol_left, symbol_right))
            self.merge_counts.append(pair_frequency)  # LENS: record
            self._merge(word_symbols, symbol_left, symbol_right, new_id)

    @classmethod
    def pretokenize(cls, text: str) -> list[str]:
        return [m.group(0) for m in PRETOKENIZE_PATTERN.finditer(text)]

    @classmethod
    def _merge(cls, word_symbols: dict[bytes, list[int]], left: bytes, right: bytes, new_id: int) -> None:
        for word, symbols in word_symbols.items():
            new_symbols = []
            i = 0
            while i < len(symbols):
                if i < len(symbols) - 1 and symbols[i] == left and symbols[i + 1] == right:
                    new_symbols.append(new_id)
                    i += 2
                else:
                    new_symbols.append(symbols[i])
                    i += 1
            word_symbols[word] = new_symbols

    def encode(self, text: str) -> list[int]:
        ids = []
        for token in self.pretokenize(text):
            symbols = list(token.encode("utf-8"))
            symbols = self._apply_bpe(symbols)
            ids.extend(symbols)
        return ids

    def _apply_bpe(self, symbols: list[int]) -> list[int]:
        for left, right in self.merges:
            new_token = self.id_to_token[left] + self.id_to_token[right]
            new_id = self.token_to_id[new_token]
            i = 0
            output = []
            while i < len(symbols):
                if i < len(symbols) - 1 and symbols[i] == left and symbols[i + 1] == right:
                    output.append(new_id)
                    i += 2
                else:
                    output.append(symbols[i])
                    i += 1
            symbols = output
        return symbols


# -- plain functions for the golden script and the tests (not seed code) ------------------------

def read_lines(path) -> list[str]:
    """The corpus as the seed's ``train`` gets it: file lines, each with its newline."""
    with open(path, encoding="utf-8") as f:
        return list(f)


def train(lines: Iterable[str], *, vocab_size: int, min_frequency: int = 2) -> dict:
    """Train; merges as (left bytes, right bytes, count), tokens by id."""
    bpe = BPE()
    bpe.train(lines, vocab_size=vocab_size, min_frequency=min_frequency)
    merges = [(bpe.id_to_token[a], bpe.id_to_token[b], n) for (a, b), n in zip(bpe.merges, bpe.merge_counts)]
    tokens = [bpe.id_to_token[i] for i in range(len(bpe.id_to_token))]
    return {"bpe": bpe, "merges": merges, "tokens": tokens}
