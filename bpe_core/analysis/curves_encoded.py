"""Curves over vocabulary size by encoding from scratch: the simple, exact path.

At every sampled merge ``m`` the model cut at ``m`` (``Encoder(model, merges_limit=m)``) encodes each
evaluation text from scratch, so a sample costs the whole evaluation text. It is the tests' oracle for the
incremental engine (:mod:`bpe_core.analysis.curve_engine`) and the engine's fallback for the models it does
not replay (a merge list that repeats a pair, seed 000's greedy encoder).
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, Optional, Sequence

from bpe_core.analysis.curve_rows import (ALL, Curves, EvalText, GroupState, as_read_by, check_texts, sample_merges,
                                      sample_rows, vocab_size_at)
from bpe_core.analysis.measures import TextSize, renyi_efficiency, text_size
from bpe_core.analysis.scripts import main_scripts, word_script
from bpe_core.types import Cancelled, Progress


def _add(a: TextSize, b: TextSize) -> TextSize:
    return TextSize(a.bytes + b.bytes, a.chars + b.chars, a.words + b.words)


def _renyi(counts: Dict[int, int]) -> float:
    return renyi_efficiency(counts) if sum(counts.values()) else float("nan")


def curves_by_encoding(model, texts: Sequence[EvalText], every: int, *, name: str = "",
                       reference: Optional[str] = None, upto: Optional[int] = None, offset: int = 0,
                       progress=None, cancel=None) -> Curves:
    """Every sample by encoding every text from scratch with ``Encoder(model, merges_limit=m)``, each text read
    as the model's corpus reader reads a file (:func:`~bpe_core.analysis.curve_rows.as_read_by`, as the engine)."""
    from bpe_core.encoding.encoder import Encoder

    texts = as_read_by(model, texts)
    ref = check_texts(texts, reference)
    last = len(model.merges) if upto is None else min(upto, len(model.merges))
    samples = sample_merges(last, every)
    if 0 < offset < last and offset not in samples:
        samples = sorted(samples + [offset])
    enc0 = Encoder(model, merges_limit=0)
    sizes = {t.name: text_size(t.text) for t in texts}
    pieces = {t.name: enc0.pieces(t.text) for t in texts}
    piece_script = {n: [word_script(p.text) for p in ps] for n, ps in pieces.items()}
    weights: Counter = Counter()
    for n in piece_script:  # weighed by characters, as the engine does
        for p, sc in zip(pieces[n], piece_script[n]):
            weights[sc] += len(p.text)
    scripts = main_scripts(list(weights), list(weights.values()))
    script_size = {s: TextSize(0, 0, 0) for s in scripts}
    for t in texts:
        for p, s in zip(pieces[t.name], piece_script[t.name]):
            if s in script_size:
                script_size[s] = _add(script_size[s], TextSize(len(p.text.encode("utf-8", "surrogatepass")),
                                                               len(p.text), 0))
        for w in t.text.split():
            s = word_script(w)
            if s in script_size:
                script_size[s] = _add(script_size[s], TextSize(0, 0, 1))
    rows = []
    for done, m in enumerate(samples):
        if cancel is not None and cancel():
            raise Cancelled()
        enc = Encoder(model, merges_limit=m)
        all_counts: Counter = Counter()
        groups: Dict[str, GroupState] = {}
        script_counts: Dict[str, Counter] = {s: Counter() for s in scripts}
        for t in texts:
            e = enc.encode(t.text)
            ids = [tok.id for tok in e.tokens]
            counts = Counter(ids)
            all_counts.update(counts)
            groups["file:" + t.name] = GroupState(len(ids), sizes[t.name], _renyi(counts))
            starts = list(e.starts) + [len(ids)]
            for k, s in enumerate(piece_script[t.name]):
                if s in script_counts:
                    script_counts[s].update(ids[starts[k]:starts[k + 1]])
        whole = TextSize(0, 0, 0)
        for t in texts:
            whole = _add(whole, sizes[t.name])
        state = {ALL: GroupState(sum(all_counts.values()), whole, _renyi(all_counts))}
        state.update(groups)
        for s in scripts:
            c = script_counts[s]
            state["script:" + s] = GroupState(sum(c.values()), script_size[s], _renyi(c))
        rows.extend(sample_rows(m, vocab_size_at(model, m), state, all_counts, [t.name for t in texts], ref))
        if progress is not None:
            progress(Progress(done + 1, len(samples), "merges"))
    return Curves(name, every, tuple(t.name for t in texts), tuple(rows), ref, offset)

