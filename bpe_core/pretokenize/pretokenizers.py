"""Pre-tokenizers: text -> words (fast, for counting) and Pieces with spans (for the encoder).

``PRETOKENIZERS`` maps the fixed names the presets and the UI use to :class:`PreTokenizer`
objects; :func:`get_pretokenizer` resolves a :class:`~bpe_core.types.TrainerConfig` (the "regex"
entry compiles ``config.pattern``). ``words(text)`` and ``pieces(text)`` treat ``text`` as ONE
sequence (like HF ``pre_tokenize_str`` or tiktoken); the corpus reader feeds a ``per_line``
pre-tokenizer one line at a time, each line with its trailing ``"\\n"`` (HF ``train(files)``).
"""
from __future__ import annotations

import functools
import re
from typing import Iterator, List, Optional, Sequence, Tuple

import regex

from bpe_core.encoding.units import word_units
from bpe_core.types import BPELensError, Piece, Raw, TrainerConfig

#: NLTK's ``wordpunct_tokenize`` pattern, compiled with Python ``re`` as NLTK <= 3.9 (the seeds' era)
#: did. NLTK 3.10 compiles it with ``regex``, whose ``\w`` also takes combining marks and differs
#: on some numbers (U+00B2, U+248E...): the same words on ordinary text, not on those characters.
WORDPUNCT_RE = re.compile(r"\w+|[^\w\s]+")
#: Rust ``char::is_whitespace`` (Unicode White_Space) = what HF ``WhitespaceSplit`` splits on.
#: Python's ``str.split()`` also splits on U+001C..U+001F; Rust does not.
_RUST_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


# Copied verbatim from the installed tiktoken_ext/openai_public.py (tiktoken 0.14); tiktoken is
# not a runtime dependency, and a test checks they still agree with it.
TIKTOKEN_PATTERNS = {
    "gpt2": r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""",
    "cl100k": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k": "|".join([
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]),
}
# The same patterns for pure-ASCII text, for Python's re with re.ASCII (~1.7x faster than regex on
# English): there \s is exactly regex's \s on ASCII (U+001C..U+001F excluded), \p{L} is A-Za-z,
# \p{N} is 0-9, and ASCII has no Lt/Lm/Lo/M characters. Tests check both agree on ASCII text.
ASCII_TWINS = {
    "gpt2": r"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]++| ?[0-9]++| ?[^\sA-Za-z0-9]++|\s++$|\s+(?!\S)|\s""",
    "cl100k": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{1,3}+| ?[^\sA-Za-z0-9]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k": r"""[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"""
             r"""[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
}
SEED001_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d|\s?[A-Za-z]+|\s?\d+|\s?[^A-Za-z\d\s]+|\s+"


class PreTokenizer:
    """Base: a compiled pattern whose non-empty matches are the words.

    ``line_local`` says ``words(a + b) == words(a) + words(b)`` whenever ``a`` ends with
    ``"\\n"``, which lets the corpus counter run ``words`` over many lines at once.
    """

    per_line = True
    line_local = False

    def __init__(self, name: str, description: str, pattern: "re.Pattern[str] | regex.Pattern[str]",
                 *, line_local: bool = False, nonempty: bool = True, ascii_twin: Optional[str] = None) -> None:
        self.name = name
        self.description = description
        self.pattern = pattern
        self.line_local = line_local
        # findall returns the groups of a pattern that has any, and user patterns may match
        # "": only then do we need the slower filtered path.
        self._findall = pattern.findall if pattern is not None and pattern.groups == 0 and nonempty else None
        self._ascii: "Optional[re.Pattern[str]]" = None
        if ascii_twin is not None:
            try:  # possessive quantifiers need Python 3.11's re; without them, no fast path
                self._ascii = re.compile(ascii_twin, re.ASCII)
            except re.error:
                pass

    def words(self, text: str) -> List[str]:
        """The words of ``text`` in order (what the trainer counts).

        >>> PRETOKENIZERS["gpt2"].words("Hello world!")
        ['Hello', ' world', '!']
        """
        if self._ascii is not None and text.isascii():
            return self._ascii.findall(text)
        if self._findall is not None:
            return self._findall(text)
        return [m.group() for m in self._matches(text)]

    def pieces(self, text: str) -> List[Piece]:
        """The same words as :meth:`words`, with their spans in ``text``.

        >>> [(p.text, p.start, p.end) for p in PRETOKENIZERS["wordpunct"].pieces("it's")]
        [('it', 0, 2), ("'", 2, 3), ('s', 3, 4)]
        """
        return [Piece(m.group(), m.start(), m.end()) for m in self._matches(text)]

    def _matches(self, text: str) -> Iterator["re.Match[str]"]:
        if self.pattern is None:  # the registry's "regex" entry before a pattern is given
            raise BPELensError(f"the {self.name!r} pre-tokenizer needs a pattern")
        pattern = self._ascii if self._ascii is not None and text.isascii() else self.pattern
        return (m for m in pattern.finditer(text) if m.end() > m.start())

    def words_in_lines(self, text: str) -> List[str]:
        """Words of every line of ``text`` (lines end at ``"\\n"``, which stays in the line).

        >>> PRETOKENIZERS["seed001"].words_in_lines("ab\\ncd")
        ['ab', '\\n', 'cd']
        """
        if self.line_local:
            return self.words(text)
        out: List[str] = []
        # Bound methods, no per-line method call: this loop is the counting hot path.
        add, words = out.extend, self._findall or self.words
        lines = text.split("\n")
        last = lines.pop()
        if self._ascii is None:
            for line in lines:
                add(words(line + "\n"))
        else:
            twin = self._ascii.findall
            for line in lines:
                line += "\n"
                add(twin(line) if line.isascii() else words(line))
        if last:
            add(self.words(last))
        return out

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        """:meth:`words` in batches, each with the text position reached (for progress).

        >>> list(PRETOKENIZERS["whitespace"].iter_words("a b"))
        [(3, ['a', 'b'])]
        """
        yield len(text), self.words(text)

    def word_symbols(self, word: str, config: TrainerConfig) -> List[Raw]:
        """Initial symbols of ``word``: its characters (+ the suffix) or its UTF-8 bytes.

        >>> PRETOKENIZERS["whitespace"].word_symbols("hé", TrainerConfig(end_of_word_suffix="</w>"))
        ['h', 'é', '</w>']
        >>> PRETOKENIZERS["gpt2"].word_symbols("hé", TrainerConfig(unit="bytes"))
        [b'h', b'\\xc3', b'\\xa9']
        """
        if config.unit == "bytes":
            if config.end_of_word_suffix:
                raise BPELensError(
                    f"an end-of-word suffix ({config.end_of_word_suffix!r}) needs unit 'chars', not 'bytes'")
            return word_units(word, "bytes")
        symbols = word_units(word, "chars")
        if config.end_of_word_suffix:
            symbols.append(config.end_of_word_suffix)
        return symbols

    def split(self, text: str, *, lowercase: bool = False) -> List[Piece]:
        """:meth:`pieces` of ``text`` (lowercased first when asked), spans in the ORIGINAL text.

        >>> [(p.text, p.start, p.end) for p in PRETOKENIZERS["whitespace"].split("İx Y", lowercase=True)]
        [('i̇x', 0, 2), ('y', 3, 4)]
        """
        if not lowercase:
            return self.pieces(text)
        lowered, index = lowercase_with_offsets(text)
        return [Piece(p.text, index[p.start], index[p.end - 1] + 1, p.special, p.suffix, p.meta)
                for p in self.pieces(lowered)]

    def __repr__(self) -> str:
        return f"<PreTokenizer {self.name}>"


class _Whitespace(PreTokenizer):
    """``str.split()`` (seed 002's ``document.split()``); ``\\S+`` with ``re`` is the same set."""

    def words(self, text: str) -> List[str]:
        return text.split()


class _PunktWordpunct(PreTokenizer):
    """Seed 000: ``sent_tokenize`` over the whole text, then ``wordpunct_tokenize`` per sentence."""

    per_line = False

    def words(self, text: str) -> List[str]:
        from bpe_core.pretokenize import punkt  # imports nltk (slow): only when this pre-tokenizer runs

        findall = WORDPUNCT_RE.findall
        return [w for s in punkt.sentences(text) for w in findall(s)]

    def pieces(self, text: str) -> List[Piece]:
        from bpe_core.pretokenize import punkt

        return [Piece(m.group(), s + m.start(), s + m.end())
                for s, e in punkt.sentence_spans(text) for m in WORDPUNCT_RE.finditer(text[s:e])]

    def words_in_lines(self, text: str) -> List[str]:
        return self.words(text)

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        # Punkt yields sentences lazily: batches keep progress and cancel responsive.
        from bpe_core.pretokenize import punkt

        findall, batch, end = WORDPUNCT_RE.findall, [], 0
        for start, end in punkt.tokenizer().span_tokenize(text):
            batch.extend(findall(text[start:end]))
            if len(batch) > 20_000:
                yield end, batch
                batch = []
        yield end, batch


class CJKPreTokenizer(PreTokenizer):
    r"""Seed 004's Chinese/English pre-processing, with its bugs fixed (one word per piece).

    The text is cut like the seed's ``re.split(r'([^\u4e00-\u9fff\w\s])|(\s+)', text)`` (empty and
    whitespace parts dropped); every remaining ``\w`` run is cut again into single Han characters
    (``[\u4e00-\u9fff]``) and non-Han runs. Then:

    =========================================  =========================  ======================
    piece                                      initial symbols            example
    =========================================  =========================  ======================
    one Han character [\u4e00-\u9fff]          itself, no suffix          编 -> 编
    non-Han \w run starting with [a-zA-Z0-9]   its characters + suffix    BPE -> B P E </w>
    other \w run (starts with é, _, ...)       ONE symbol, no suffix      école -> école
    one punctuation / symbol character         ONE symbol, no suffix      ！ -> ！
    =========================================  =========================  ======================

    Differences from the seed: the seed counts whole *documents* (``Counter`` of the joined
    string) instead of words; it gives a mixed run such as ``Python编程`` one ``</w>`` after the
    Han characters (``P y t h o n 编 程 </w>``) where we cut it into ``Python``, ``编``, ``程``; its
    punctuation joined with spaces could be split again by ``str.split``. The suffix is
    ``config.end_of_word_suffix`` (the seed-004 preset sets ``</w>``).
    """

    def pieces(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for m in self.pattern.finditer(text):
            # Only a non-Han \w run can start with an ASCII letter or digit.
            out.append(Piece(m.group(), m.start(), m.end(), suffix=m.group()[0] in _ASCII_ALNUM))
        return out

    def word_symbols(self, word: str, config: TrainerConfig) -> List[Raw]:
        """Han character or other piece: itself; ASCII-led run: its characters + the suffix.

        >>> cfg = TrainerConfig(end_of_word_suffix="</w>")
        >>> [PRETOKENIZERS["cjk"].word_symbols(w, cfg) for w in ["ab", "编", "école", "！"]]
        [['a', 'b', '</w>'], ['编'], ['école'], ['！']]
        """
        if config.unit == "bytes":
            raise BPELensError("the 'cjk' pre-tokenizer works on characters; set the unit to 'chars'")
        symbols: List[Raw] = [word]
        if word and word[0] in _ASCII_ALNUM:
            symbols = list(word)
            if config.end_of_word_suffix:
                symbols.append(config.end_of_word_suffix)
        return symbols


_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
# A Han character | a run of other \w characters | one character that is neither \w,
# whitespace nor Han (the seed's first split group). Whitespace matches nothing: dropped.
CJK_RE = re.compile(r"[\u4e00-\u9fff]|[^\W\u4e00-\u9fff]+|[^\w\s\u4e00-\u9fff]")


# Letters of every ASCII kind, digits, punctuation, spaces, a newline, accents and Han: a user
# pattern that matches something here but only ever the empty string cannot make words.
_PROBE = "The quick brown fox jumps over the lazy dog. 0123456789 _-+=!?,;:'\"()[]{}<>/\\|@#$%^&*~`\n\t  éÉßøü 世界 x_y"


@functools.lru_cache(maxsize=64)
def compile_user_pattern(pattern: Optional[str]) -> "regex.Pattern[str]":
    """Compile a user pre-tokenizer pattern with ``regex``; bad patterns raise BPELensError.

    >>> compile_user_pattern(r"\\w+").findall("a bc")
    ['a', 'bc']
    """
    if not pattern:
        raise BPELensError("the 'regex' pre-tokenizer needs a pattern; the pattern is empty")
    try:
        compiled = regex.compile(pattern)
    except regex.error as e:
        raise BPELensError(f"invalid pre-tokenizer pattern {pattern!r}: {e}") from None
    except (TypeError, ValueError, OverflowError, RecursionError) as e:
        raise BPELensError(f"invalid pre-tokenizer pattern {pattern!r}: {e}") from None
    matches = list(compiled.finditer(_PROBE))
    if matches and all(m.end() == m.start() for m in matches):
        raise BPELensError(f"pre-tokenizer pattern {pattern!r} only matches the empty string, so it makes no words")
    return compiled


def _registry() -> dict[str, PreTokenizer]:
    # The seed-001 pattern is compiled with Python ``re`` as the seed does: ``regex`` gives
    # ``\s`` a different set (it lacks U+001C..U+001F).
    items = [
        _Whitespace("whitespace", "split on whitespace like str.split() (seed 002)", re.compile(r"\S+"),
                    line_local=True),
        PreTokenizer("whitespace-split", "split on Unicode whitespace like HF WhitespaceSplit",
                     re.compile(f"[^{_RUST_WS}]+"), line_local=True),
        PreTokenizer("wordpunct", r"NLTK wordpunct_tokenize: \w+|[^\w\s]+ (Python re, as in NLTK 3.9)",
                     WORDPUNCT_RE, line_local=True),
        _PunktWordpunct("punkt-wordpunct", "NLTK sent_tokenize on the whole text, then wordpunct (seed 000)",
                        WORDPUNCT_RE),
        PreTokenizer("gpt2", "GPT-2 regex (tiktoken r50k / HF ByteLevel)", regex.compile(TIKTOKEN_PATTERNS["gpt2"]),
                     ascii_twin=ASCII_TWINS["gpt2"]),
        PreTokenizer("cl100k", "tiktoken cl100k_base regex (GPT-4)", regex.compile(TIKTOKEN_PATTERNS["cl100k"]),
                     ascii_twin=ASCII_TWINS["cl100k"]),
        PreTokenizer("o200k", "tiktoken o200k_base regex (GPT-4o)", regex.compile(TIKTOKEN_PATTERNS["o200k"]),
                     ascii_twin=ASCII_TWINS["o200k"]),
        PreTokenizer("seed001", "seed 001's ASCII regex (Python re)", re.compile(SEED001_PATTERN)),
        PreTokenizer("regex", "your own regex: every match is a word (regex module)", None),  # type: ignore[arg-type]
        CJKPreTokenizer("cjk", "Han characters one by one, Latin/digit runs with </w>, punctuation alone "
                        "(seed 004, fixed)", CJK_RE, line_local=True),
    ]
    return {p.name: p for p in items}


PRETOKENIZERS: dict[str, PreTokenizer] = _registry()


def get_pretokenizer(config: TrainerConfig) -> PreTokenizer:
    """The pre-tokenizer a config names (the "regex" one compiled from ``config.pattern``).

    >>> get_pretokenizer(TrainerConfig(pretokenizer="regex", pattern=r"\\d+")).words("a1 22")
    ['1', '22']
    """
    name = config.pretokenizer
    if name == "regex":
        return PreTokenizer("regex", PRETOKENIZERS["regex"].description, compile_user_pattern(config.pattern),
                            nonempty=False)
    try:
        return PRETOKENIZERS[name]
    except KeyError:
        raise BPELensError(f"unknown pre-tokenizer {name!r}; known: {', '.join(PRETOKENIZERS)}") from None


def lowercase_with_offsets(text: str) -> Tuple[str, Sequence[int]]:
    """``text.lower()`` and, for each position of it (plus one past the end), the index in ``text``.

    ``str.lower`` can lengthen a character ('İ' -> 'i̇'), so spans found in the lowered text
    must be mapped back: a piece ``[s, e)`` of ``lowered`` is ``[index[s], index[e - 1] + 1)``.

    >>> lowered, index = lowercase_with_offsets("İa")
    >>> lowered, list(index)
    ('i̇a', [0, 0, 1, 2])
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        # No character changed length (lowercase never shortens one), so positions agree.
        return lowered, range(len(text) + 1)
    index: List[int] = []
    for i, ch in enumerate(text):
        # Per-character lengths are context free (the final-sigma rule swaps one char for one).
        index.extend([i] * len(ch.lower()))
    index.append(len(text))
    return lowered, index

