"""Seed 002 (BPE 分词解密): whitespace words, ``</w>`` symbol, sorted alphabet, vocab_size or max_iter.

The seed's ``BPE`` class, as published. The only change (``# LENS:``) records each merge's count in
``merge_counts``; the seed prints it only in debug mode (``max(pair_freq.values())``).

Kept as in the seed:

- each document (here: each line of a file) is cut with ``str.split()``; word counts in order of first
  appearance (``Counter +=`` keeps insertion order);
- ``self.vocab`` = sorted alphabet (the words' characters and ``"</w>"``), then every merge's string
  appended, even when that string is already in the list (``len(self.vocab)`` counts alphabet + merges);
- the loop stops when ``len(self.vocab) >= vocab_size`` or after ``max_iter`` merges (``max_iter=0`` means
  no limit, because the test is ``if self.max_iter and ...``), or when no pair is left;
- the tie rule is the first maximum of the pair dict (``max(pair_freq, key=pair_freq.get)``).

>>> bpe = BPE(["highest", "higher", "lower", "lowest", "cooler", "coolest"], vocab_size=17)
>>> bpe.train()
>>> list(bpe.merges.values())
['es', 'est', 'est</w>', 'er', 'er</w>']
"""
from __future__ import annotations

from collections import Counter, defaultdict


class BPE:
    def __init__(
        self,
        corpus: list[str],
        vocab_size: int,
        max_iter: int | None = None,
        debug: bool = False,
    ):
        self.corpus = corpus
        self.vocab_size = vocab_size
        self.vocab = []
        self.word_freq = Counter()
        self.splits = {}  # e.g. highest: [high, est</w>]
        self.merges = {}  # e.g. [high, est</w>]: highest
        self.max_iter = max_iter
        self.debug = debug
        self.merge_counts = []  # LENS: each merge's count, recorded for the goldens

    def train(self):
        """Train a BPE Tokenizer"""
        # count the word frequency
        for document in self.corpus:
            # split each document in corpus by whitespace
            words = document.split()
            self.word_freq += Counter(words)

        # initialize the self.splits
        for word in self.word_freq:
            self.splits[word] = list(word) + ["</w>"]

        if self.debug:
            print(f"Init splits: {self.splits}")

        alphabet = set()
        for word in self.word_freq:
            alphabet |= set(list(word))
        alphabet.add("</w>")

        self.vocab = list(alphabet)
        self.vocab.sort()

        cnt = 0
        while len(self.vocab) < self.vocab_size:
            if self.max_iter and cnt >= self.max_iter:
                break

            # find the most frequent pair
            pair_freq = self.get_pairs_freq()

            if len(pair_freq) == 0:
                print("No pair available")
                break

            pair = max(pair_freq, key=pair_freq.get)
            self.merge_counts.append(pair_freq[pair])  # LENS: record

            self.update_splits(pair[0], pair[1])

            if self.debug:
                print(f"Updated splits: {self.splits}")

            self.merges[pair] = pair[0] + pair[1]

            self.vocab.append(pair[0] + pair[1])

            if self.debug:
                print(
                    f"Most frequent pair({max(pair_freq.values())} times) "
                    f"is : {pair[0]}, {pair[1]}. Vocab size: {len(self.vocab)}"
                )

            cnt += 1

    def update_splits(self, lhs: str, rhs: str):
        """If we see lhs and rhs appear consecutively, we merge them"""
        for word, word_split in self.splits.items():
            new_split = []
            cursor = 0
            while cursor < len(word_split):
                if (
                    word_split[cursor] == lhs
                    and cursor + 1 < len(word_split)
                    and word_split[cursor + 1] == rhs
                ):
                    new_split.append(lhs + rhs)
                    cursor += 2
                else:
                    new_split.append(word_split[cursor])
                    cursor += 1
            self.splits[word] = new_split

    def get_pairs_freq(self) -> dict:
        """Compute the pair frequency"""
        pairs_freq = defaultdict(int)
        for word, freq in self.word_freq.items():
            split = self.splits[word]
            for i in range(len(split)):
                if i + 1 < len(split):
                    pairs_freq[(split[i], split[i + 1])] += freq

        return pairs_freq

    def tokenize(self, s: str) -> list[str]:
        splits = [list(t) + ["</w>"] for t in s.split()]

        for lhs, rhs in self.merges:
            for idx, split in enumerate(splits):
                new_split = []
                cursor = 0
                while cursor < len(split):
                    if (
                        cursor + 1 < len(split)
                        and split[cursor] == lhs
                        and split[cursor + 1] == rhs
                    ):
                        new_split.append(lhs + rhs)
                        cursor += 2
                    else:
                        new_split.append(split[cursor])
                        cursor += 1
                assert "".join(new_split) == "".join(split)
                splits[idx] = new_split

        return sum(splits, [])


# -- plain functions for the golden script and the tests (not seed code) ------------------------

def read_documents(path) -> list[str]:
    """A text file's lines as the seed's documents (each keeps its newline; ``split()`` drops it)."""
    with open(path, encoding="utf-8") as f:
        return list(f)


def train(documents: list[str], *, vocab_size: int, max_iter: int | None = None) -> dict:
    """Train; merges as (left, right, count), the vocab list, and the trained object."""
    bpe = BPE(documents, vocab_size=vocab_size, max_iter=max_iter)
    bpe.train()
    merges = [(a, b, n) for (a, b), n in zip(bpe.merges, bpe.merge_counts)]
    return {"bpe": bpe, "merges": merges, "vocab": list(bpe.vocab)}
