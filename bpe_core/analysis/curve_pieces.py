"""The evaluation texts as the curves engine keeps them: distinct pieces with their counts per file and their
script, and the token tables of every group (all, each file, each main script) as the pieces change.

:class:`Pieces` cuts each text once with the model's pipeline (``Encoder(model, merges_limit=0)``: its pieces
and what the encoder makes of each at merge 0); equal pieces are kept once. A script group counts the
pieces of that script (their bytes and characters) and the whitespace-separated words of that script (for
tokens per word). :class:`Tallies` keeps a :class:`~bpe_core.analysis.measures.RenyiTally` per group: a
piece that changes from ``old`` to ``new`` tokens moves its count times the difference, so the totals and
the Rényi sums are always those of the current tokenization (a change costs the tokens that differ times the
groups the piece counts in; a reading costs O(1) per group).
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, List, Optional, Sequence, Tuple

from bpe_core.analysis.curve_rows import ALL, EvalText, GroupState
from bpe_core.analysis.measures import RenyiTally, TextSize
from bpe_core.analysis.scripts import main_scripts, word_script

Seg = List[int]


class Pieces:
    """The evaluation texts' distinct pieces: segmentation, per-file counts, group, whole-token override."""

    def __init__(self, model, texts: Sequence[EvalText]) -> None:
        from bpe_core.encoding.encoder import Encoder

        enc = Encoder(model, merges_limit=0)
        self.files = [t.name for t in texts]
        index: Dict[Tuple[str, bool, Optional[int]], int] = {}
        self.text: List[str] = []
        self.start: List[Seg] = []
        self.seg: List[Seg] = []
        self.freq: List[Dict[int, int]] = []
        self.special: List[bool] = []
        for f, t in enumerate(texts):
            encoding = enc.encode(t.text)
            ids = [tok.id for tok in encoding.tokens]
            bounds = list(encoding.starts) + [len(ids)]
            for k, p in enumerate(enc.pieces(t.text)):
                key = (p.text, p.suffix, p.special)
                i = index.get(key)
                if i is None:
                    i = index[key] = len(self.text)
                    self.text.append(p.text)
                    self.seg.append(ids[bounds[k]:bounds[k + 1]])
                    self.special.append(p.special is not None)
                    self.start.append(self.seg[-1] if p.special is not None
                                      else list(enc.start_ids(p.text, p.suffix)[0]))
                    self.freq.append({})
                self.freq[i][f] = self.freq[i].get(f, 0) + 1
        self.total = [sum(fr.values()) for fr in self.freq]
        scripts = [word_script(s) for s in self.text]
        weights: Counter = Counter()
        for s, n in zip(scripts, self.total):
            weights[s] += n
        self.scripts = main_scripts(list(weights), list(weights.values()))
        place = {s: k for k, s in enumerate(self.scripts)}
        self.group = [place.get(s, -1) for s in scripts]
        sizes = [[0, 0, 0] for _ in self.scripts]
        for i, g in enumerate(self.group):
            if g >= 0:
                sizes[g][0] += self.total[i] * len(self.text[i].encode("utf-8", "surrogatepass"))
                sizes[g][1] += self.total[i] * len(self.text[i])
        for t in texts:
            for w in t.text.split():
                g = place.get(word_script(w), -1)
                if g >= 0:
                    sizes[g][2] += 1
        self.script_size = [TextSize(*s) for s in sizes]


class Tallies:
    """Token tables per group (RenyiTally each) and the per-file token totals, updated by piece changes."""

    def __init__(self, pieces: Pieces) -> None:
        self.p = pieces
        self.all = RenyiTally()
        self.file = [RenyiTally() for _ in pieces.files]
        self.script = [RenyiTally() for _ in pieces.scripts]
        for i, seg in enumerate(pieces.seg):
            self.change(i, [], seg)

    def change(self, i: int, old: Seg, new: Seg) -> None:
        p = self.p
        delta: Dict[int, int] = {}
        for t in old:
            delta[t] = delta.get(t, 0) - 1
        for t in new:
            delta[t] = delta.get(t, 0) + 1
        total, g = p.total[i], p.group[i]
        freq = p.freq[i].items()
        for t, d in delta.items():
            if d:
                self.all.add(t, d * total)
                for f, n in freq:
                    self.file[f].add(t, d * n)
                if g >= 0:
                    self.script[g].add(t, d * total)


def _eff(tally: RenyiTally) -> float:
    return tally.efficiency() if tally.total else float("nan")


def group_states(tallies: Tallies, sizes: Sequence[TextSize], whole: TextSize) -> Dict[str, GroupState]:
    p = tallies.p
    out = {ALL: GroupState(tallies.all.total, whole, _eff(tallies.all))}
    for name, t, size in zip(p.files, tallies.file, sizes):
        out["file:" + name] = GroupState(t.total, size, _eff(t))
    for name, t, size in zip(p.scripts, tallies.script, p.script_size):
        out["script:" + name] = GroupState(t.total, size, _eff(t))
    return out
