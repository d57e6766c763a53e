"""Encode text with a :class:`~bpe_core.model.BPEModel`, exactly as the model's own library does.

Algorithms (``model.algorithm``):

* ``merges`` - Hugging Face ``tokenizers`` / GPT-2: repeatedly merge the adjacent pair with the lowest
  merge rank, the leftmost one on equal ranks (``merges_limit``: only the first k merges count).
* ``tiktoken`` - tiktoken's ``_byte_pair_merge``: repeatedly merge the adjacent parts whose concatenated
  bytes have the lowest rank; a whole piece that is a token is one token.
* ``seed000-greedy`` - seed 000's frequency-greedy encoder (:mod:`bpe_core.encoding.seed000_greedy`).
* ``picky`` - PickyBPE's event replay of merges and removals (:mod:`bpe_core.encoding.picky`).

Characters with no token: the model's ``unk`` token when it has one (fused runs with ``fuse_unk``),
``<0xNN>`` tokens with ``byte_fallback``; otherwise they are dropped - as ``tokenizers`` does - and
their spans listed in :attr:`LensEncoding.unknown` so a view can mark them. Models with
``keep_unknown`` (the seed presets, whose own tokenize keeps such characters) get a token with id
:data:`UNKNOWN` (-1) instead; no file format sets it.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)])
>>> enc = Encoder(m)
>>> [(t.raw, t.start, t.end) for t in enc.encode("abba").tokens]
[('ab', 0, 2), ('b', 2, 3), ('a', 3, 4)]
>>> Encoder(m, merges_limit=0).encode_ids("ab"), enc.decode([2, 1])
([0, 1], 'abb')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from bpe_core.base.merge import MergeTable, byte_pair_bounds, byte_pair_bounds_long, merge_table, segment
from bpe_core.base.symbols import display as display_raw
from bpe_core.base.units import surrogate_error
from bpe_core.encoding.decode import decode_chars
from bpe_core.encoding.spans import Span, span_mapper
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, EncodedToken, Encoding, Piece

#: a word's encoding: token ids, their spans in units (chars or UTF-8 bytes) of the word, dropped spans
WordResult = Tuple[List[int], List[Span], List[Span]]


#: id of a kept symbol the vocabulary has no token for (models with ``keep_unknown``)
UNKNOWN = -1


def _no_utf8(text: str, what: str = "the text") -> Exception:
    """The BPELensError naming the lone surrogate that made UTF-8 encoding fail (else the error itself)."""
    return surrogate_error(text, what) or BPELensError(f"{what} cannot be encoded as UTF-8")


@dataclass(frozen=True)
class LensEncoding(Encoding):
    #: input spans dropped because the vocabulary has neither a token nor an unk token for them
    unknown: Tuple[Span, ...] = ()
    #: the index of each word's (pre-tokenizer piece's) first token: no merge joins tokens across them
    #: (:mod:`bpe_core.encoding.advance`); empty when not known (seed 000's encoder)
    starts: Tuple[int, ...] = ()


class Encoder:
    """Encodes text with one model; ``merges_limit`` (keyword-only) encodes as of merge k.

    >>> from bpe_core.model import BPEModel
    >>> m = BPEModel(unit="chars", tokens=["h", "u", "g", "ug", "hug"], merges=[(1, 2), (0, 3)])
    >>> Encoder(m).encode_ids("hug"), Encoder(m, merges_limit=1).encode_ids("hug")
    ([4], [0, 3])
    """

    #: the word cache is cleared when it grows past this many entries (bounded memory)
    CACHE_SIZE = 200_000

    def __init__(self, model: BPEModel, *, merges_limit: Optional[int] = None) -> None:
        self.model = model
        #: None: every merge (a tiktoken model's merges are then never touched: they may be lazy)
        self.merges_limit = None if merges_limit is None else max(0, merges_limit)
        self._bytes = model.unit == "bytes"
        self._vocab = model.vocab
        added_only = set(model.extras.get("added_only") or ())
        if added_only:  # added tokens outside the BPE vocab: only the pipeline emits them (tokenizers)
            self._vocab = {r: i for r, i in model.vocab.items() if i not in added_only}
        self._cache: Dict[object, Tuple[int, ...]] = {}
        self._span_cache: Dict[Tuple[str, bool], WordResult] = {}
        self._display: Dict[int, str] = {}  # id -> display string (glyphs are built once per id)
        #: the unit mapper: the same chain the trainer started its words from (a model trained here)
        self._units = model.units
        self._prefix = self._units.prefix
        self._sep_suffix = model.end_of_word_suffix
        words: Dict[str, Callable[[str, bool], WordResult]] = {
            "merges": self._word_merges, "tiktoken": self._word_tiktoken,
            "seed000-greedy": self._word_seed000_greedy, "picky": self._word_picky}
        if model.algorithm not in words:
            raise BPELensError(f"unknown encoding algorithm {model.algorithm!r}")
        self._word = words[model.algorithm]
        if model.algorithm == "merges":
            self._merge_table = self._build_merge_table()
        elif model.algorithm == "picky":  # merges and removals replayed as events (PickyBPE)
            from bpe_core.encoding.picky import PickyReplay
            self._picky = PickyReplay(model, self.merges_limit)
        elif model.algorithm == "tiktoken":
            # tokens made by merges past the limit are not allowed; base bytes always are
            limited = self.merges_limit is not None and self.merges_limit < len(model.merges)
            results = [self._vocab.get(model.tokens[a] + model.tokens[b])  # type: ignore[operator]
                       for a, b in model.merges[: self.merges_limit]] if limited else []
            self._max_rank = max([r for r in results if r is not None], default=-1) if limited else None
            # the hot lookup: a bare dict.get unless a merges limit has to be checked
            self._rank_of = self._rank if limited else self._vocab.get

    # -- public API ------------------------------------------------------------------------
    def encode_ids(self, text: str) -> List[int]:
        """Token ids only - the fast path (word cache, no spans)."""
        try:
            return self._ids(text)
        except UnicodeEncodeError:  # a lone surrogate has no UTF-8 bytes: say where it is
            raise _no_utf8(text) from None

    def _ids(self, text: str) -> List[int]:
        if self.model.algorithm == "seed000-greedy":
            return self.encode(text).ids
        pipe = self.model.pipeline
        if pipe is None or self._sep_suffix:
            return self._encode_pieces_ids(text)
        fast = pipe.split_words
        out: List[int] = []
        extend, cache, get, word = out.extend, self._cache, self._cache.get, self._word
        for item in fast(text):  # str pieces and int added-token ids; both are cache keys
            ids = get(item)
            if ids is None:
                if len(cache) >= self.CACHE_SIZE:
                    cache.clear()
                # tuples: immutable, and the cyclic GC stops tracking them
                ids = cache[item] = (item,) if isinstance(item, int) else tuple(word(item, True)[0])
            extend(ids)
        return out

    def _encode_pieces_ids(self, text: str) -> List[int]:
        """encode_ids without a pipeline or for models with a separate suffix symbol (pieces' flags matter)."""
        out: List[int] = []
        cache = self._cache
        for p in self._pieces(text):
            if p.special is not None:
                out.append(p.special)
            elif self._sep_suffix and not p.suffix:
                out.extend(self._word(p.text, False)[0])
            else:
                ids = cache.get(p.text)
                if ids is None:
                    if len(cache) >= self.CACHE_SIZE:
                        cache.clear()
                    ids = cache[p.text] = tuple(self._word(p.text, True)[0])
                out.extend(ids)
        return out

    def encode(self, text: str) -> LensEncoding:
        """Tokens with ids and character spans into ``text``."""
        try:
            return self._encode(text)
        except UnicodeEncodeError:
            raise _no_utf8(text) from None

    def _encode(self, text: str) -> LensEncoding:
        if self.model.algorithm == "seed000-greedy":  # works on Punkt sentences, not on words
            from bpe_core.encoding.seed000_greedy import encode_seed000
            return LensEncoding(encode_seed000(self.model, text, self.merges_limit).tokens)
        tokens: List[EncodedToken] = []
        unknown: List[Span] = []
        starts: List[int] = []
        m = self.model
        disp = self._display
        for p in self._pieces(text):
            starts.append(len(tokens))
            if p.special is not None:
                tokens.append(EncodedToken(p.special, m.tokens[p.special] or "", m.display(p.special),
                                           p.start, p.end, p.special in m.special_ids))
                continue
            ids, spans, drops = self._word_spans(p.text, p.suffix)
            # the common case needs no mapping: piece text is the input's, one unit per character
            plain = not p.meta and len(p.text) == p.end - p.start and (not self._bytes or p.text.isascii())
            to_orig = None if plain else span_mapper(p, self._bytes)
            for tid, sp in zip(ids, spans):
                s, e = (p.start + sp[0], p.start + sp[1]) if to_orig is None else to_orig(sp)
                if tid == UNKNOWN:  # a symbol the vocabulary lacks, kept (seed presets)
                    raw = p.text.encode()[sp[0]:sp[1]] if self._bytes else p.text[sp[0]:sp[1]]
                    tokens.append(EncodedToken(UNKNOWN, raw, display_raw(raw), s, e))
                    continue
                shown = disp.get(tid)
                if shown is None:
                    shown = disp[tid] = m.display(tid)
                raw = m.tokens[tid]
                tokens.append(EncodedToken(tid, raw if raw is not None else "", shown, s, e))
            if drops:
                unknown.extend((to_orig or span_mapper(p, self._bytes))(sp) for sp in drops)
        return LensEncoding(tuple(tokens), tuple(unknown), tuple(starts))

    def decode(self, ids: Sequence[int]) -> str:
        """Text of ``ids``: bytes joined and decoded (errors="replace"); chars with suffixes undone."""
        m = self.model
        raws = []
        for i in ids:
            if not 0 <= i < len(m.tokens) or m.tokens[i] is None:
                raise BPELensError(f"token id {i} is not in this vocabulary")
            raws.append(m.tokens[i])
        if self._bytes:
            return b"".join(r if isinstance(r, bytes) else r.encode() for r in raws).decode("utf-8", "replace")
        return decode_chars(m, raws)

    # -- the parts an explanation replays (bpe_core.analysis.explain) ----------------------------
    def pieces(self, text: str) -> List[Piece]:
        """The words this encoder encodes, with their spans (specials whole): the model's pipeline."""
        try:
            return self._pieces(text)
        except UnicodeEncodeError:
            raise _no_utf8(text) from None

    def start_ids(self, word: str, suffix: bool = True) -> WordResult:
        """A word's initial ids and unit spans before any merge (affixes, unk, byte fallback applied)."""
        try:
            return self._symbols(word, suffix)
        except UnicodeEncodeError:
            raise _no_utf8(word, "the word") from None

    @property
    def merge_table(self) -> MergeTable:
        """(left, right) -> (0-based rank, new id): what ``segment`` merges by (``merges`` models)."""
        return self._merge_table

    def byte_rank(self, data: bytes) -> Optional[int]:
        """tiktoken models: the rank of ``data`` as a token allowed by ``merges_limit``, or None."""
        return self._rank_of(data)

    # -- pieces and spans --------------------------------------------------------------------
    def _pieces(self, text: str) -> List[Piece]:
        if self.model.pipeline is None:
            return [Piece(text, 0, len(text))] if text else []
        return self.model.pipeline.split(text)

    def _word_spans(self, word: str, suffix: bool) -> WordResult:
        key = (word, suffix)
        hit = self._span_cache.get(key)
        if hit is None:
            if len(self._span_cache) >= self.CACHE_SIZE:
                self._span_cache.clear()
            hit = self._span_cache[key] = self._word(word, suffix)
        return hit

    # -- initial symbols (tokenizers' BPE::merge_word) ---------------------------------------
    def _symbols(self, word: str, suffix: bool) -> WordResult:
        """Initial symbol ids and spans: prefix/suffix forms, byte fallback, unk fusing, dropping."""
        m, vocab = self.model, self._vocab
        units = self._units.base(word)  # bytes or characters (spans count these)
        forms = self._units.affixed(units)  # with the HF prefix and end forms: what the vocabulary holds
        ids: List[int] = []
        spans: List[Span] = []
        drops: List[Span] = []
        unk: Optional[List[int]] = None  # [start, end] of a pending unk run
        end = 0  # spans are in bytes (bytes models) or characters: a unit may hold several chars
        for u, s in zip(units, forms):
            start, end = end, end + len(u)
            tid = vocab.get(s)
            if tid is not None:
                if unk is not None:
                    ids.append(m.unk_id)  # type: ignore[arg-type]
                    spans.append((unk[0], unk[1]))
                    unk = None
                ids.append(tid)
                spans.append((start, end))
                continue
            if m.byte_fallback:
                data = s if isinstance(s, bytes) else s.encode()
                fb = [vocab.get(f"<0x{b:02X}>") for b in data]
                if all(x is not None for x in fb):
                    ids.extend(fb)  # type: ignore[arg-type]
                    spans.extend([(start, end)] * len(fb))
                    continue
            if m.unk_id is None and m.keep_unknown:
                ids.append(UNKNOWN)  # the seeds' tokenize keeps a symbol it has no token for
                spans.append((start, end))
            elif m.unk_id is None:
                drops.append((start, end))
            elif unk is not None and m.fuse_unk:
                unk[1] = end
            else:
                if unk is not None:
                    ids.append(m.unk_id)
                    spans.append((unk[0], unk[1]))
                unk = [start, end]
        if unk is not None:
            ids.append(m.unk_id)  # type: ignore[arg-type]
            spans.append((unk[0], unk[1]))
        if self._sep_suffix and suffix:
            sid = vocab.get(self._sep_suffix)
            if sid is not None:
                ids.append(sid)
                spans.append((end, end))
            elif m.unk_id is not None:
                ids.append(m.unk_id)
                spans.append((end, end))
        return ids, spans, drops

    # -- algorithms ----------------------------------------------------------------------------
    def _build_merge_table(self) -> MergeTable:
        """(left, right) -> (rank, new id) by :func:`~bpe_core.base.merge.merge_table` (a repeated
        pair keeps its last rank, as tokenizers). tokenizers strips the prefix from the right token."""
        m, vocab, plen = self.model, self._vocab, len(self._prefix)
        merges = m.merges[: self.merges_limit]
        results: List[int] = []
        for rank, (a, b) in enumerate(merges):
            new = vocab.get(m.tokens[a] + m.tokens[b][plen:])  # type: ignore[operator,index]
            if new is None:
                raise BPELensError(f"merge {rank + 1} ({m.display(a)} + {m.display(b)}) makes no token of the vocabulary")
            results.append(new)
        return merge_table(merges, results)

    def _word_merges(self, word: str, suffix: bool) -> WordResult:
        m = self.model
        if m.ignore_merges:
            tid = self._vocab.get(word.encode() if self._bytes else word)
            if tid is not None:
                return [tid], [(0, len(word.encode()) if self._bytes else len(word))], []
        ids, spans, drops = self._symbols(word, suffix)
        if len(ids) < 2:
            return ids, spans, drops
        merged, starts = segment(ids, self._merge_table)
        if len(merged) == len(ids):
            return ids, spans, drops
        ends = starts[1:] + [len(ids)]
        return merged, [(spans[s][0], spans[e - 1][1]) for s, e in zip(starts, ends)], drops

    def _word_picky(self, word: str, suffix: bool) -> WordResult:
        return self._picky.word(*self._symbols(word, suffix))

    def _rank(self, data: bytes) -> Optional[int]:
        r = self._vocab.get(data)
        if r is not None and self._max_rank is not None and len(data) > 1 and r > self._max_rank:
            return None
        return r

    def _word_tiktoken(self, word: str, suffix: bool) -> WordResult:
        data = word.encode()
        n = len(data)
        r = self._rank_of(data)
        if r is not None:
            return [r], [(0, n)], []
        if n < 64:  # a list and min() at C speed; the heap wins on long pieces
            bounds = byte_pair_bounds(data, self._vocab.get if self._max_rank is None else self._rank_or)
        else:
            bounds = byte_pair_bounds_long(data, self._rank_of)
        ids: List[int] = []
        spans: List[Span] = []
        drops: List[Span] = []
        unk = self.model.unk_id
        for i, e in zip(bounds, bounds[1:]):
            tid = self._vocab.get(data[i:e])
            if tid is None and unk is None:
                drops.append((i, e))  # a byte the file has no rank for (tiktoken itself would fail)
            else:
                ids.append(unk if tid is None else tid)  # type: ignore[arg-type]
                spans.append((i, e))
        return ids, spans, drops

    def _rank_or(self, data: bytes, default: int) -> int:
        r = self._rank(data)
        return default if r is None else r

    def _word_seed000_greedy(self, word: str, suffix: bool) -> WordResult:
        """One word with seed 000's frequency-greedy merging (no sentence markers)."""
        from bpe_core.encoding.seed000_greedy import EOW, merge_greedy
        v2i = self.model.extras["vocab_to_idx"]
        unk = v2i["<unk>"]
        ids: List[int] = []
        spans: List[Span] = []
        pos = 0
        for sub in merge_greedy(list(word) + [EOW], self.model.extras["freqs"]):
            n = len(sub) - len(EOW) if sub.endswith(EOW) else len(sub)
            ids.append(v2i.get(sub, unk))
            spans.append((pos, pos + n))
            pos += n
        return ids, spans, []
