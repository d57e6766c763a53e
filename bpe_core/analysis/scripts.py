"""The Unicode script of a word, to group fertility and training curves by language family.

A word's script is the one most of its letters belong to (Unicode ``Script`` property, through the
``regex`` module); a word without letters (digits, punctuation, whitespace) is ``Common``. Scripts
outside :data:`SCRIPTS` are ``Other``; letters shared by several scripts (``ー``) do not vote. Both lookups are cached: a corpus has few distinct characters,
and each word is asked once (``words_scripts``), so grouping 100k words costs well under a second.

>>> [word_script(w) for w in (" the", "三国", "Москва", "42", "naïve", "東京タワー", "タワー")]
['Latin', 'Han', 'Cyrillic', 'Common', 'Latin', 'Han', 'Katakana']
"""
from __future__ import annotations

from collections import Counter
import unicodedata
from functools import lru_cache
from typing import Dict, Iterable, List, Mapping, Optional, Sequence

import regex

#: the scripts named in reports; any other letter is ``Other``
SCRIPTS = ("Latin", "Han", "Cyrillic", "Greek", "Arabic", "Hebrew", "Hiragana", "Katakana", "Hangul",
           "Devanagari", "Bengali", "Tamil", "Thai", "Armenian", "Georgian", "Ethiopic")
COMMON = "Common"
OTHER = "Other"
_PATTERNS = [(name, regex.compile(rf"\p{{Script={name}}}")) for name in SCRIPTS]
_SHARED = regex.compile(r"[\p{Script=Common}\p{Script=Inherited}]")  # ー, ʼ, ª: letters of no one script


@lru_cache(maxsize=65536)
def char_script(ch: str) -> Optional[str]:
    """The script of a letter or a combining mark, ``None`` for any other character (it does not vote). A mark
    belongs to its script (Tamil's vowel sign ``ி``, Devanagari's virama): GPT-2's pre-tokenizer cuts Indic
    words at their marks, and a piece of marks alone is part of that script's word; marks of no one script
    (``Inherited``: the acute accent, Arabic's harakat) do not vote.

    >>> char_script("a"), char_script("я"), char_script("1"), char_script("ー"), char_script("ሀ"), char_script("ᚠ")
    ('Latin', 'Cyrillic', None, None, 'Ethiopic', 'Other')
    """
    if not (ch.isalpha() or unicodedata.category(ch)[0] == "M") or _SHARED.match(ch):
        return None
    for name, pattern in _PATTERNS:
        if pattern.match(ch):
            return name
    return OTHER


def word_script(word: str) -> str:
    """The script most of ``word``'s letters are in (the first such script on a tie); ``Common``
    when it has no letters."""
    votes: Dict[str, int] = {}
    for ch in word:
        s = char_script(ch)
        if s is not None:
            votes[s] = votes.get(s, 0) + 1
    if not votes:
        return COMMON
    return max(votes, key=votes.__getitem__)  # dicts keep insertion order: the first maximum wins


def words_scripts(words: Iterable[str]) -> List[str]:
    """``word_script`` of each word, in order."""
    return [word_script(w) for w in words]


def main_scripts(scripts: Iterable[str], weights: Iterable[int], *, share: float = 0.01) -> List[str]:
    """The letter scripts (not ``Common``) holding at least ``share`` of the weight, largest first:
    the groups worth a curve of their own.

    >>> main_scripts(["Latin", "Han", "Common", "Greek"], [60, 30, 9, 1], share=0.05)
    ['Latin', 'Han']
    """
    totals: Counter = Counter()
    for s, w in zip(scripts, weights):
        totals[s] += w
    whole = sum(totals.values()) or 1
    return [s for s, n in totals.most_common() if s != COMMON and n / whole >= share]


def piece_main_scripts(pieces: Sequence[object], counts: Sequence[int],
                       scripts: Optional[Sequence[str]] = None) -> List[str]:
    """The script groups of a text cut into ``pieces`` (each occurring ``counts`` times; ``scripts``: their
    scripts when found already): :func:`main_scripts` weighed by characters, as a Chinese sentence is few
    pieces but many characters. The groups of the Measures curves and of the Variants tab's figures.

    >>> piece_main_scripts([" the", "三国演义", "!"], [3, 1, 2])
    ['Latin', 'Han']
    """
    if scripts is None:
        scripts = [word_script(p) if isinstance(p, str) else COMMON for p in pieces]
    weights: Counter = Counter()
    for s, n, piece in zip(scripts, counts, pieces):
        weights[s] += n * len(piece)  # type: ignore[arg-type]
    return main_scripts(list(weights), list(weights.values()))


def text_words(texts: Iterable[str]) -> Counter:
    """The whitespace-separated words (``str.split()``) of ``texts`` by script: what tokens per word divides
    by, for each script group (the Measures curves and the Variants tab's figures). ``texts`` may be a file's
    lines: a line break separates words as any whitespace does.

    >>> sorted(text_words(["the cat, ", "Москва 42\\n"]).items())
    [('Common', 1), ('Cyrillic', 1), ('Latin', 2)]
    """
    words: Counter = Counter()
    for text in texts:
        words.update(text.split())
    return words_by_script(words)


def words_by_script(words: Mapping[str, int]) -> Counter:
    """Distinct words and their counts (``str.split()``'s, as :func:`text_words` counts them) summed by script:
    for a reader that counts the words on its own pass over the text (the Health report's)."""
    out: Counter = Counter()
    for word, n in words.items():
        out[word_script(word)] += n
    return out
