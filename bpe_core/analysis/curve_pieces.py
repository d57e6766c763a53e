"""The evaluation texts as the curves engine keeps them: distinct pieces with their counts per file and their
script, and the token tables of every group (all, each file, each main script) as the pieces change.

:class:`Pieces` cuts each text once with the model's pipeline (``Encoder(model, merges_limit=0)``: its pieces
and what the encoder makes of each at merge 0); equal pieces are kept once. A script group counts the
pieces of that script (their bytes and characters; a script is a group when its pieces hold at least 1% of the
text's characters) and the whitespace-separated words of that script (for
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
from bpe_core.analysis.scripts import piece_main_scripts, text_words, word_script
from bpe_core.types import Cancelled, Progress

Seg = List[int]

#: the setup checks Cancel and reports progress every this many pieces (each costs microseconds: ~0.1 s)
CHECK_EVERY = 50_000


class Setup:
    """Progress and Cancel while the engine sets up (cutting the texts, the pieces' tables): :meth:`step`
    counts pieces and, every :data:`CHECK_EVERY` of them, asks ``cancel`` (raising
    :class:`~bpe_core.types.Cancelled`) and reports ``Progress(done, total, unit)``."""

    def __init__(self, progress=None, cancel=None) -> None:
        self.progress, self.cancel = progress, cancel
        self.unit, self.done, self.total, self._next = "reading", 0, 0, CHECK_EVERY

    def stage(self, unit: str, total: int, done: int = 0) -> None:
        """A stage of ``total`` units, ``done`` of them done; checks Cancel and reports."""
        self.unit, self.done, self.total, self._next = unit, done, total, done + CHECK_EVERY
        self._check()

    def step(self, n: int = 1) -> None:
        self.done += n
        if self.done >= self._next:
            self._next = self.done + CHECK_EVERY
            self._check()

    def _check(self) -> None:
        if self.cancel is not None and self.cancel():
            raise Cancelled()
        if self.progress is not None:
            self.progress(Progress(min(self.done, self.total), self.total, self.unit))


class Pieces:
    """The evaluation texts' distinct pieces: segmentation, per-file counts, group, whole-token override."""

    def __init__(self, model, texts: Sequence[EvalText], setup: Optional[Setup] = None) -> None:
        from bpe_core.encoding.encoder import Encoder

        setup = Setup() if setup is None else setup

        enc = Encoder(model, merges_limit=0)
        self.files = [t.name for t in texts]
        index: Dict[Tuple[object, bool], int] = {}
        self.text: List[str] = []
        self.start: List[Seg] = []
        self.seg: List[Seg] = []
        self.freq: List[Dict[int, int]] = []
        self.special: List[bool] = []
        fast = model.pipeline is not None and not model.end_of_word_suffix  # the encoder's encode_ids path
        plain = model.algorithm == "merges" and not model.ignore_merges
        for f, t in enumerate(texts):
            setup.stage("reading", len(texts), f)
            items: Counter = Counter()
            if fast:
                items.update((w, True) for w in _words(model.pipeline, t.text))
            else:
                items.update((p.text if p.special is None else p.special, p.suffix) for p in enc.pieces(t.text))
            setup.stage("pieces", len(items))
            for key, n in items.items():
                setup.step()
                i = index.get(key)
                if i is None:
                    i = index[key] = len(self.text)
                    item, suffix = key
                    special = isinstance(item, int)
                    self.special.append(special)
                    if special:
                        self.text.append(model.tokens[item] if isinstance(model.tokens[item], str) else "")
                        self.seg.append([item])
                        self.start.append([item])
                    else:
                        self.text.append(item)
                        # its units, and what the encoder makes of it at merge 0 (its per-piece step): the units
                        # for a plain merge list, else maybe a whole token (tiktoken, PickyBPE, ignore_merges)
                        start = list(enc.start_ids(item, suffix)[0])
                        self.start.append(start)
                        self.seg.append(start if plain else list(enc._word(item, suffix)[0]))
                    self.freq.append({})
                self.freq[i][f] = self.freq[i].get(f, 0) + n
        self.total = [sum(fr.values()) for fr in self.freq]
        scripts = [word_script(s) for s in self.text]
        self.scripts = piece_main_scripts(self.text, self.total, scripts)  # weighed by characters
        place = {s: k for k, s in enumerate(self.scripts)}
        self.group = [place.get(s, -1) for s in scripts]
        sizes = [[0, 0, 0] for _ in self.scripts]
        for i, g in enumerate(self.group):
            if g >= 0:
                sizes[g][0] += self.total[i] * len(self.text[i].encode("utf-8", "surrogatepass"))
                sizes[g][1] += self.total[i] * len(self.text[i])
        words = text_words(t.text for t in texts)  # one home: the Variants tab's figures count these too
        for s, g in place.items():
            sizes[g][2] = words[s]
        self.script_size = [TextSize(*s) for s in sizes]


def _words(pipeline, text: str) -> List[object]:
    """The pipeline's pieces of ``text`` as the encoder's fast path cuts them (specials as ids); without a
    special token in the text, straight from the pre-tokenizer (no piece objects)."""
    from bpe_core.pipelines.chain import Pipeline

    if isinstance(pipeline, Pipeline) and not pipeline.config.encode_lowercase \
            and not any(s in text for s in pipeline.specials):
        return pipeline.pretokenizer.words(text)
    return pipeline.split_words(text)


class Tallies:
    """Token tables per group (a RenyiTally each), updated by piece changes.

    A change is first summed per group and token (integers: exact) and reaches the tallies at :meth:`flush`
    (before a sample is read), so the Rényi sums take one update per token and group between two samples,
    not one per piece changed. With one file its table is the "all" table (the same counts)."""

    def __init__(self, pieces: Pieces, setup: Optional[Setup] = None) -> None:
        setup = Setup() if setup is None else setup
        setup.stage("pieces", len(pieces.seg))
        self.p = pieces
        self.all = RenyiTally()
        self.file = [RenyiTally() for _ in pieces.files] if len(pieces.files) > 1 else [self.all]
        self.script = [RenyiTally() for _ in pieces.scripts]
        self._all: Dict[int, int] = {}
        self._file: List[Dict[int, int]] = [{} for _ in self.file] if len(pieces.files) > 1 else []
        self._script: List[Dict[int, int]] = [{} for _ in self.script]
        # per piece: the pending tables its tokens count in, each with the piece's count there
        self._where = [[(self._all, pieces.total[i])] + [(self._file[f], n) for f, n in pieces.freq[i].items()
                                                         if self._file]
                       + ([(self._script[g], pieces.total[i])] if g >= 0 else []) for i, g in enumerate(pieces.group)]
        for i, seg in enumerate(pieces.seg):
            setup.step()
            self.change(i, [], seg)
        self.flush()

    def change(self, i: int, old: Seg, new: Seg) -> None:
        """Piece ``i`` emits ``new`` instead of ``old``."""
        delta: Dict[int, int] = {}
        for t in old:
            delta[t] = delta.get(t, 0) - 1
        for t in new:
            delta[t] = delta.get(t, 0) + 1
        self._move(i, [(t, d) for t, d in delta.items() if d])

    def merged(self, i: int, left: int, right: int, new: int, times: int) -> None:
        """Piece ``i`` merged ``left`` + ``right`` into ``new`` ``times`` times."""
        for table, n in self._where[i]:
            c = times * n
            table[left] = table.get(left, 0) - c
            table[right] = table.get(right, 0) - c  # left == right: twice, as it should
            table[new] = table.get(new, 0) + c

    def _move(self, i: int, deltas) -> None:
        for table, n in self._where[i]:
            for t, d in deltas:
                table[t] = table.get(t, 0) + d * n

    def flush(self) -> int:
        """The summed changes into the tallies; returns how many (token, group) updates that made."""
        done = 0
        for pend, tally in [(self._all, self.all), *zip(self._file, self.file), *zip(self._script, self.script)]:
            add = tally.add
            for t, d in pend.items():
                if d:
                    add(t, d)
                    done += 1
            pend.clear()
        return done


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
