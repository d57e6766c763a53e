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

from bpe_core.encoding.symbols import to_glyphs
from bpe_core.types import BPELensError, Piece, Raw, TrainerConfig

_BYTES: Tuple[bytes, ...] = tuple(bytes([i]) for i in range(256))
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
            return [_BYTES[b] for b in word.encode("utf-8")]
        symbols: List[Raw] = list(word)
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
    r"""Seed 004's Chinese/English pre-processing as its text intends (``docs/seeds.md``).

    The text is cut like the seed's ``re.split(r'([^\u4e00-\u9fff\w\s])|(\s+)', text)`` (Python
    ``re``, empty and whitespace parts dropped); every remaining ``\w`` run is cut again into runs of
    Unicode script Han (``regex``'s ``\p{Han}``) and the runs between them. Then:

    =========================================  =========================  ======================
    piece                                      initial symbols            example
    =========================================  =========================  ======================
    a run of Han characters                    its characters, no suffix  自然 -> 自 然
    any other run of word characters           its characters + suffix    BPE -> B P E </w>
    (Latin, digits, accents, kana, Hangul...)                             カナ -> カ ナ </w>
    one punctuation / symbol character         itself, no suffix          ！ -> ！
    =========================================  =========================  ======================

    The seed's code joins a whole sentence into one symbol sequence, so its merges cross words; here
    each piece is a word and merges stay inside it. The suffix is ``config.end_of_word_suffix`` (the
    ``cjk-mixed`` preset sets ``</w>``).
    """

    def words(self, text: str) -> List[str]:
        out: List[str] = []
        add, cut = out.append, _HAN_CUT.findall
        for run in _CJK_SPLIT.findall(text):
            if run.isascii() or len(run) == 1:  # no Han in it, or nothing to cut
                add(run)
            else:
                out.extend(cut(run))
        return out

    def pieces(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for m in _CJK_SPLIT.finditer(text):
            start, run = m.start(), m.group()
            for h in _HAN_CUT.finditer(run):
                word = h.group()
                out.append(Piece(word, start + h.start(), start + h.end(), suffix=_takes_suffix(word)))
        return out

    def word_symbols(self, word: str, config: TrainerConfig) -> List[Raw]:
        """A word's characters, plus the suffix for a run of non-Han word characters.

        >>> cfg = TrainerConfig(end_of_word_suffix="</w>")
        >>> [PRETOKENIZERS["cjk"].word_symbols(w, cfg) for w in ["ab", "编程", "école", "！", "カナ"]]
        [['a', 'b', '</w>'], ['编', '程'], ['é', 'c', 'o', 'l', 'e', '</w>'], ['！'], ['カ', 'ナ', '</w>']]
        """
        if config.unit == "bytes":
            raise BPELensError("the 'cjk' pre-tokenizer works on characters; set the unit to 'chars'")
        symbols: List[Raw] = list(word)
        if config.end_of_word_suffix and _takes_suffix(word):
            symbols.append(config.end_of_word_suffix)
        return symbols


def _takes_suffix(word: str) -> bool:
    """True for a run of non-Han word characters; a Han run and a punctuation character get no suffix.

    The word alone says which kind it is: a Han run starts with Han, the other runs hold none, and a
    punctuation character is not a word character.
    """
    return _HAN_START.match(word) is None and _WORD_CHAR.match(word) is not None


# The seed's split, as matches: one character that is neither a word character, whitespace nor in
# [\u4e00-\u9fff] (its first group), or a run of what lies between (whitespace is dropped). Python
# ``re`` as in the seed: its \w differs from ``regex``'s (combining marks are not \w here).
_CJK_SPLIT = re.compile(r"[\w\u4e00-\u9fff]+|[^\u4e00-\u9fff\w\s]")
_WORD_CHAR = re.compile(r"[\w\u4e00-\u9fff]")
#: a \w run is cut into runs of Unicode script Han and the runs between them
_HAN_CUT = regex.compile(r"\p{Han}+|\P{Han}+")
_HAN_START = regex.compile(r"\p{Han}")
CJK_RE = _CJK_SPLIT


class GlyphPreTokenizer(PreTokenizer):
    """GPT-2's words as the HF course sees them: each word's UTF-8 bytes as GPT-2 glyph characters.

    ``ByteLevel.pre_tokenize_str`` returns such strings (``" the"`` -> ``"Ġthe"``), and the course's code
    works on their *characters*. With ``lowercase_words`` (the course's literal order) ``str.lower`` then
    turns ``Ġ`` into ``ġ``; a model over these words has unit ``chars`` and glyph-string tokens. Each
    piece's ``meta["align"]`` maps its glyphs back to the characters they came from.
    """

    def __init__(self, name: str, description: str, inner: PreTokenizer) -> None:
        super().__init__(name, description, inner.pattern)
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
        super().__init__(inner.name, inner.description, inner.pattern)
        self.inner, self.lower_pieces = inner, lower_pieces
        self.per_line, self.line_local = inner.per_line, inner.line_local

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

    def word_symbols(self, word: str, config: TrainerConfig) -> List[Raw]:
        return self.inner.word_symbols(word, config)


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
        CJKPreTokenizer("cjk", "Han runs as words of characters, other word runs with </w>, punctuation "
                        "alone (seed 004 as its text intends)", CJK_RE, line_local=True),
        GlyphPreTokenizer("gpt2-glyphs", "GPT-2 words as byte glyph strings (Ġthe), for character models "
                          "(the HF course's view)", PreTokenizer("gpt2", "", regex.compile(TIKTOKEN_PATTERNS["gpt2"]),
                                                                 ascii_twin=ASCII_TWINS["gpt2"])),
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
        pre = PreTokenizer("regex", PRETOKENIZERS["regex"].description, compile_user_pattern(config.pattern),
                           nonempty=False)
    else:
        try:
            pre = PRETOKENIZERS[name]
        except KeyError:
            raise BPELensError(f"unknown pre-tokenizer {name!r}; known: {', '.join(PRETOKENIZERS)}") from None
    if config.lowercase_words:
        lower = config.lowercase_words if config.lowercase_encode is None else config.lowercase_encode
        pre = LowercasedWords(pre, lower)
    return pre


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

