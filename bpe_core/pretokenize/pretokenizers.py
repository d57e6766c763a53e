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
from typing import Iterator, List, Optional, Tuple

import regex

from bpe_core.pretokenize.base import PreTokenizer, lowercase_with_offsets
from bpe_core.pretokenize.bmp_twin import BMP_TWINS
from bpe_core.pretokenize.cjk import CJK_RE, CJKPreTokenizer
from bpe_core.pretokenize.metaspace import MetaspaceWords
from bpe_core.pretokenize.superbpe import stage1_pretokenizer, stage2_pretokenizer
from bpe_core.pretokenize.wrappers import GlyphPreTokenizer, LowercasedWords
from bpe_core.types import BPELensError, Piece, TrainerConfig

__all__ = ["ASCII_TWINS", "CJK_RE", "PRETOKENIZERS", "SEED001_PATTERN", "TIKTOKEN_PATTERNS", "WORDPUNCT_RE",
           "CJKPreTokenizer", "PreTokenizer", "compile_user_pattern", "get_pretokenizer", "lowercase_with_offsets"]

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
                    line_local=True, cut_at_space=True),
        PreTokenizer("whitespace-split", "split on Unicode whitespace like HF WhitespaceSplit",
                     re.compile(f"[^{_RUST_WS}]+"), line_local=True,
                     cut_at_space=True),
        PreTokenizer("wordpunct", r"NLTK wordpunct_tokenize: \w+|[^\w\s]+ (Python re, as in NLTK 3.9)",
                     WORDPUNCT_RE, line_local=True, cut_at_space=True),
        _PunktWordpunct("punkt-wordpunct", "NLTK sent_tokenize on the whole text, then wordpunct (seed 000)",
                        WORDPUNCT_RE),
        PreTokenizer("gpt2", "GPT-2 regex (tiktoken r50k / HF ByteLevel)", regex.compile(TIKTOKEN_PATTERNS["gpt2"]),
                     ascii_twin=ASCII_TWINS["gpt2"], cut_at_space=True,
                     bmp_twin=BMP_TWINS["gpt2"]),
        PreTokenizer("cl100k", "tiktoken cl100k_base regex (GPT-4)", regex.compile(TIKTOKEN_PATTERNS["cl100k"]),
                     ascii_twin=ASCII_TWINS["cl100k"], cut_at_space=True),
        PreTokenizer("o200k", "tiktoken o200k_base regex (GPT-4o)", regex.compile(TIKTOKEN_PATTERNS["o200k"]),
                     ascii_twin=ASCII_TWINS["o200k"], cut_at_space=True),
        PreTokenizer("seed001", "seed 001's ASCII regex (Python re)", re.compile(SEED001_PATTERN), cut_at_space=True),
        PreTokenizer("regex", "your own regex: every match is a word (regex module)", None),  # type: ignore[arg-type]
        CJKPreTokenizer("cjk", "Han runs as words of characters, other word runs with </w>, punctuation "
                        "alone (seed 004 as its text intends)", CJK_RE, line_local=True, cut_at_space=True),
        GlyphPreTokenizer("gpt2-glyphs", "GPT-2 words as byte glyph strings (Ġthe), for character models "
                          "(the HF course's view)", PreTokenizer("gpt2", "", regex.compile(TIKTOKEN_PATTERNS["gpt2"]),
                                                                 ascii_twin=ASCII_TWINS["gpt2"], cut_at_space=True,
                                                                 bmp_twin=BMP_TWINS["gpt2"])),
        stage1_pretokenizer(), stage2_pretokenizer(),
        MetaspaceWords("picky", "PickyBPE's words: each str.split() word prefixed with \u2581 (pchizhov/picky_bpe)",
                       _Whitespace("whitespace", "", re.compile(r"\S+"), line_local=True, cut_at_space=True)),
    ]
    # Every built-in pattern above: a space after [A-Za-z0-9] ends a word and the next starts fresh
    # (a test checks each one on real text); a user's "regex" pattern may not, so it is never cut.
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
                           nonempty=False, guarded=True)
    else:
        try:
            pre = PRETOKENIZERS[name]
        except KeyError:
            raise BPELensError(f"unknown pre-tokenizer {name!r}; known: {', '.join(PRETOKENIZERS)}") from None
    if config.lowercase_words:
        lower = config.lowercase_words if config.lowercase_encode is None else config.lowercase_encode
        pre = LowercasedWords(pre, lower)
    return pre
