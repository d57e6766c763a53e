"""Seed 003 (BPE算法深度解析): the Hugging Face course's BPE on GPT-2 pre-tokenized words.

The seed's script with its indentation restored, its module-level steps wrapped in ``train`` and
``tokenize`` (the script's globals ``word_freqs``, ``merges`` and ``tokenizer`` become arguments).
Changes are marked ``# LENS:``:

- **lowercase before pre-tokenizing.** The seed lowercases the pre-tokenized words
  (``word_freqs[word.lower()]``), and GPT-2's pre-tokenizer has already turned the space into ``Ġ``
  (U+0120), which ``str.lower`` turns into ``ġ`` (U+0121): every word after the first of a sentence starts
  with ``ġ`` in its vocabulary while ``tokenize`` produces ``Ġ``. The course's intent (lowercase words) is
  kept by lowercasing the text first.
- **stop when no pair is left.** With no pair, the seed's ``best_pair`` stays ``""`` and
  ``best_pair[0]`` raises ``IndexError``.
- ``train`` records each merge's count (records only).

``train(..., literal=True)`` runs the seed's published order (the ``hf-course-literal`` preset shows it).

Kept as in the seed: the vocab is the sorted alphabet, then ``"<|endoftext|>"``, then one entry per
merge; ``vocab_size`` counts that list; the tie rule is the first maximum (strict ``<`` scan);
``tokenize`` does not lowercase. GPT-2's pre-tokenizer (``AutoTokenizer.from_pretrained("gpt2")``, no hub
here) is read from ``../shared/data/gpt2/tokenizer.json``: ``ByteLevel(add_prefix_space=False,
trim_offsets=True, use_regex=True)``.

>>> r = train(CORPUS, vocab_size=50)
>>> r["merges"][:3]
[('Ġ', 't', 12), ('Ġt', 'o', 9), ('e', 'n', 6)]
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from tests.core.paths import need

corpus = [
    "This is the HuggingFace Course.",
    "This chapter is about tokenization.",
    "This section shows how to tokenize in practice.",
    "Let's see how to tokenize in practice.",
    "First, we need to download a tokenizer.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
CORPUS = tuple(corpus)


@lru_cache(maxsize=1)
def gpt2_pre_tokenizer():
    # LENS: tokenizer._tokenizer.pre_tokenizer of AutoTokenizer.from_pretrained("gpt2"), read offline
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(need("gpt2/tokenizer.json"))).pre_tokenizer


# 计算字典中所有词元对频率
def compute_pair_freqs(splits, word_freqs):  # LENS: word_freqs passed in (a global in the seed)
    pair_freqs = defaultdict(int)
    for word, freq in word_freqs.items():
        split = splits[word]
        if len(split) == 1:
            continue
        for i in range(len(split) - 1):
            pair = (split[i], split[i + 1])
            pair_freqs[pair] += freq
    return pair_freqs


# 词对合并函数
def merge_pair(a, b, splits, word_freqs):  # LENS: word_freqs passed in
    for word in word_freqs:
        split = splits[word]
        if len(split) == 1:
            continue
        i = 0
        while i < len(split) - 1:
            if split[i] == a and split[i+1] == b:
                split = split[:i] + [a + b] + split[i+2:]
            else:
                i += 1
        splits[word] = split
    return splits


def train(corpus, vocab_size=50, literal=False):
    """The script's training part; returns merges as (left, right, count), vocab, merges dict.

    ``literal=True`` runs the seed's own order (lowercase the Ġ-words), for the ``hf-course-literal`` preset.
    """
    pre_tokenizer = gpt2_pre_tokenizer()
    word_freqs = defaultdict(int)  # 统计词频

    for text in corpus:
        if literal:  # the seed's code as published
            words_with_offsets = pre_tokenizer.pre_tokenize_str(text)
            new_words = [word for word, offset in words_with_offsets]
            for word in new_words:
                word_freqs[word.lower()] += 1
            continue
        # LENS: lowercase the text, not the Ġ-words (str.lower turns "Ġ" into "ġ")
        words_with_offsets = pre_tokenizer.pre_tokenize_str(text.lower())
        new_words = [word for word, offset in words_with_offsets]
        for word in new_words:
            word_freqs[word] += 1  # LENS: was word_freqs[word.lower()]

    # 计算字母表
    alphabet = []
    for word in word_freqs.keys():
        for letter in word:
            if letter not in alphabet:
                alphabet.append(letter)
    alphabet.sort()  # 排序
    vocab = alphabet.copy()
    # 在字典开头增加特殊词元"<|endoftext|>",用来表示文本结束
    vocab.append("<|endoftext|>")

    # 将词切分为字符
    splits = {word: [c for c in word] for word in word_freqs.keys()}

    # 存储合并规则
    merges = {}
    counts = []  # LENS: each merge's count

    while len(vocab) < vocab_size:
        pair_freqs = compute_pair_freqs(splits, word_freqs)
        best_pair = ""
        max_freq = None
        for pair, freq in pair_freqs.items():
            if max_freq is None or max_freq < freq:
                max_freq = freq
                best_pair = pair
        if max_freq is None:  # LENS: no pair left; the seed crashes on best_pair[0]
            break
        splits = merge_pair(best_pair[0], best_pair[1], splits, word_freqs)
        merges[best_pair] = best_pair[0] + best_pair[1]
        vocab.append(best_pair[0] + best_pair[1])
        counts.append(max_freq)  # LENS: record

    return {
        "merges": [(a, b, n) for (a, b), n in zip(merges, counts)],
        "vocab": vocab,
        "merges_dict": merges,
        "word_freqs": dict(word_freqs),
    }


# 训练完成后,tokenize函数用于对给定文本进行词元切分
def tokenize(text, merges):  # LENS: merges passed in (a global in the seed)
    pre_tokenize_result = gpt2_pre_tokenizer().pre_tokenize_str(text)
    pre_tokenized_text = [word for word, offset in pre_tokenize_result]
    splits = [[l for l in word] for word in pre_tokenized_text]
    for pair, merge in merges.items():
        for idx, split in enumerate(splits):
            i = 0
            while i < len(split) - 1:
                if split[i] == pair[0] and split[i+1] == pair[1]:
                    split = split[:i] + [merge] + split[i+2:]
                else:
                    i += 1
            splits[idx] = split
    return sum(splits, [])


# -- plain functions for the golden script and the tests (not seed code) ------------------------

def read_lines(path) -> list[str]:
    """A text file's lines, each with its newline (one text of the corpus per line)."""
    with open(path, encoding="utf-8") as f:
        return list(f)
