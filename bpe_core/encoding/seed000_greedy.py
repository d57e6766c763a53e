"""Seed 000's vocabulary and its frequency-greedy encoder (the `nltk-wordpunct` preset).

Seed 000 does not number tokens by merge: after training it counts, for every unique word's
final segmentation, each subword once per word (``count_byte_freqs``), adds the specials
``<line/> </line> <pad> <unk>``, numbers subwords by that count (descending, stable), and only
then overwrites the counts of merged subwords with their merge frequencies
(``freqs.update(merged_pair_freqs)``). Encoding merges, inside each word, the adjacent pair
whose concatenation has the highest value in that table (leftmost on ties) until none is in
the table; each sentence (Punkt) longer than one character is wrapped in ``<line/> ... </line>``.
A subword the table knows but the id map does not (an intermediate merge) becomes ``<unk>``,
exactly as in the seed.
"""
from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, EncodedToken, Encoding, MergeStep, Piece, Raw

SPECIALS = ("<line/>", "</line>", "<pad>", "<unk>")
EOW = "</w>"


def seed000_tables(segmentations: Iterable[Sequence[Raw]], history: Sequence[MergeStep]
                   ) -> Tuple[Dict[str, int], Dict[str, int]]:
    """(freqs, vocab_to_idx) exactly as seed 000's ``train_bpe`` returns them.

    ``segmentations``: every unique word's final subwords; ``history``: the merges, in order.
    (Plain data, not the trainer: this module must not import the training package.)

    >>> seed000_tables([["ab", "</w>"], ["ab"]], [])[1]["ab"]
    0
    """
    freqs: Dict[str, int] = {}
    for subs in segmentations:
        for sub in subs:
            freqs[sub] = freqs.get(sub, 0) + 1  # type: ignore[index]
    for special in SPECIALS:
        freqs[special] = freqs.get(special, 0) + 1
    ordered = sorted(freqs.items(), key=lambda kv: kv[1], reverse=True)  # stable, like the seed
    vocab_to_idx = {word: i for i, (word, _) in enumerate(ordered)}
    merged: Dict[str, int] = {}
    for step in history:
        key = step.new_token
        merged[key] = merged.get(key, 0) + step.count  # type: ignore[index]
    freqs.update(merged)
    return freqs, vocab_to_idx


def seed000_model(segmentations: Iterable[Sequence[Raw]], history: Sequence[MergeStep], base: BPEModel
                  ) -> BPEModel:
    """Renumber ``base`` the seed's way and attach its tables (see :func:`seed000_tables`);
    merges keep their ranks."""
    freqs, vocab_to_idx = seed000_tables(segmentations, history)
    tokens: List = [None] * len(vocab_to_idx)
    for sub, i in vocab_to_idx.items():
        tokens[i] = sub
    # merges are kept for lineage; tokens that are not in vocab_to_idx get ids after it
    extra = {}
    for raw in base.tokens:
        if raw not in vocab_to_idx and raw not in extra:
            extra[raw] = len(tokens) + len(extra)
    tokens.extend(extra)
    remap = {old: (vocab_to_idx.get(raw) if raw in vocab_to_idx else extra[raw]) for old, raw in enumerate(base.tokens)}
    merges = [(remap[a], remap[b]) for a, b in base.merges]
    return BPEModel(
        unit="chars", tokens=tokens, merges=merges, merge_counts=list(base.merge_counts),
        specials={s: vocab_to_idx[s] for s in SPECIALS}, pipeline=base.pipeline, algorithm="seed000-greedy",
        end_of_word_suffix=EOW, unk_id=vocab_to_idx["<unk>"], name=base.name, source_format=base.source_format,
        config=base.config,
        extras={"freqs": freqs, "vocab_to_idx": vocab_to_idx, "vocab_size_seed": len(vocab_to_idx)})


def merge_greedy(symbols: List[str], freqs: Dict[str, int],
                 fired: Optional[List[Tuple[int, int]]] = None) -> List[str]:
    """Seed 000's ``merge_bytes``: merge the best-known adjacent pair until none is known.

    ``fired`` (a list) receives ``(table value, position)`` for each merge (for explanations).

    >>> log = []; merge_greedy(["a", "b", "c"], {"ab": 1, "bc": 5}, log), log
    (['a', 'bc'], [(5, 1)])
    """
    while True:
        best_i = -1
        best_f = None
        for i in range(1, len(symbols)):
            f = freqs.get(symbols[i - 1] + symbols[i])
            if f is not None and (best_f is None or f > best_f):
                best_f, best_i = f, i - 1
        if best_i < 0:
            return symbols
        if fired is not None:
            fired.append((best_f, best_i))  # type: ignore[arg-type]
        symbols = symbols[:best_i] + [symbols[best_i] + symbols[best_i + 1]] + symbols[best_i + 2:]


def encode_seed000(model: BPEModel, text: str, merges_limit: Optional[int] = None) -> Encoding:
    """Seed 000's ``get_line_ids`` over Punkt sentences, with character spans.

    The seed's tables describe the vocabulary after *all* its merges, so a model can only encode
    as of its own last merge: to see step k, build the model at step k (``Trainer.model()``).
    """
    if merges_limit is not None and merges_limit < len(model.merges):
        raise BPELensError("seed 000's encoder needs the model built at that step (Trainer.model() at step k)")
    freqs: Dict[str, int] = model.extras["freqs"]
    v2i: Dict[str, int] = model.extras["vocab_to_idx"]
    unk = v2i["<unk>"]
    out: List[EncodedToken] = []
    for piece in seed000_pieces(model, text):
        if piece.special is not None:
            out.append(EncodedToken(piece.special, piece.text, piece.text, piece.start, piece.end, True))
            continue
        pos = piece.start
        for sub in merge_greedy(list(piece.text) + [EOW], freqs):
            n = len(sub) - len(EOW) if sub.endswith(EOW) else len(sub)
            tid = v2i.get(sub, unk)
            out.append(EncodedToken(tid, sub, sub, pos, pos + n))
            pos += n
    return Encoding(tuple(out))


def seed000_pieces(model: BPEModel, text: str) -> Iterator[Piece]:
    """The words seed 000 encodes: per Punkt sentence longer than one character, ``<line/>``
    (a special piece), the sentence's wordpunct words, then ``</line>``."""
    from bpe_core.pretokenize.pretokenizers import WORDPUNCT_RE
    from bpe_core.pretokenize.punkt import sentence_spans
    v2i: Dict[str, int] = model.extras["vocab_to_idx"]
    for s_start, s_end in sentence_spans(text):
        line = text[s_start:s_end]
        if len(line) <= 1:
            continue
        yield Piece("<line/>", s_start, s_start, special=v2i["<line/>"])
        for m in WORDPUNCT_RE.finditer(line):
            yield Piece(m.group(), s_start + m.start(), s_start + m.end())
        yield Piece("</line>", s_end, s_end, special=v2i["</line>"])
