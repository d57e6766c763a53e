"""Branches of a timeline: a pair picked by hand where merges follow forks the run; both futures are kept.

A branch is the merges of one run from merge 0 plus the pairs picked by hand on its way (position ->
pair, :attr:`Trainer.picks <bpe_core.training.trainer.Trainer.picks>`): with the same picks a fresh
trainer makes the same merges, so a branch is replayed, never stored as state. The current branch's
merges are the timeline's (:attr:`Timeline.steps`); the others keep theirs as records.

>>> from bpe_core.training.timeline import Timeline
>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.types import TrainerConfig
>>> tl = Timeline(Trainer({"ba": 1, "cab": 1}, TrainerConfig()))
>>> br = Branches(tl)
>>> [tl.display(s.new_id) for s in tl.step(2)]
['ba', 'ca']
>>> _ = tl.seek(0); new, steps = br.pick(tl.trainer.id_of("a"), tl.trainer.id_of("b"))
>>> new.name, new.fork, [tl.display(s.new_id) for s in tl.steps]
('pick at merge 1: a + b', 0, ['ab'])
>>> _ = br.switch(0); [tl.display(s.new_id) for s in tl.steps], tl.merge_count
(['ba', 'ca'], 0)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

from bpe_core.base.symbols import display
from bpe_core.model import BPEModel
from bpe_core.training.config import limit_reached
from bpe_core.training.export import records_model
from bpe_core.training.timeline import Timeline
from bpe_core.training.word_changes import WordChanges
from bpe_core.types import BPELensError, MergeStep, Raw

Pair = Tuple[int, int]


@dataclass
class Branch:
    """One future of a run: its merges from merge 0 and the pairs picked by hand on its way."""

    id: int
    name: str
    parent: Optional[int]
    #: merges shared with the parent: the branch's first own merge is merge ``fork + 1``
    fork: int
    picks: Dict[int, Pair] = field(default_factory=dict)
    #: the merges known on this branch (a snapshot while another branch is current)
    steps: List[MergeStep] = field(default_factory=list)
    #: where the timeline stood when this branch was left
    position: int = 0


@dataclass(frozen=True)
class BranchComparison:
    """Two branches side by side from where they part (``fork`` merges in common)."""

    fork: int
    names: Tuple[str, str]
    #: (rank, merge on the first, merge on the second) for ranks fork + 1 ... (None past a branch's end)
    rows: Tuple[Tuple[int, Optional[MergeStep], Optional[MergeStep]], ...]
    #: (word, frequency, its tokens on the first, on the second) after ``depth`` merges on each
    words: Tuple[Tuple[str, int, Tuple[str, ...], Tuple[str, ...]], ...]
    depth: int


def shared_prefix(a: Sequence[MergeStep], b: Sequence[MergeStep]) -> int:
    """How many first merges ``a`` and ``b`` have in common (the same pairs: the same state)."""
    n = 0
    for x, y in zip(a, b):
        if (x.left, x.right) != (y.left, y.right):
            break
        n += 1
    return n


class Branches:
    """The branches of one timeline: pick a pair by hand (forking when merges follow), switch, compare."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self._branches: Dict[int, Branch] = {0: Branch(0, "main", None, 0)}
        self.current_id = 0

    @property
    def current(self) -> Branch:
        return self._branches[self.current_id]

    def get(self, branch_id: int) -> Branch:
        try:
            return self._branches[branch_id]
        except KeyError:
            raise BPELensError(f"no branch {branch_id}") from None

    def all(self) -> List[Branch]:
        """Every branch, oldest first (the current one brought up to date)."""
        self._save_current()
        return list(self._branches.values())

    def steps_of(self, branch_id: int) -> List[MergeStep]:
        # the current branch's merges as far as its position has been (not those the app read ahead)
        return self.timeline.reached_steps if branch_id == self.current_id else self.get(branch_id).steps

    def _save_current(self) -> None:
        cur, tl = self.current, self.timeline
        cur.steps, cur.picks, cur.position = list(tl.reached_steps), dict(tl.trainer.picks), tl.merge_count

    def _settle(self) -> None:
        self.timeline.seek(self.timeline.merge_count)  # a lagging trainer catches up; nothing moves

    # -- commands ---------------------------------------------------------------------------------------
    def pick(self, left: int, right: int, *, name: Optional[str] = None
             ) -> Tuple[Optional[Branch], List[MergeStep]]:
        """Merge (left, right) at the position instead of the rule's pair; returns (the new branch or None,
        the merge made). With known merges after the position, the old future stays as the branch it was
        and the pick continues on a new one; without, the current branch goes on."""
        tl = self.timeline
        self._settle()
        k, trainer, known = tl.merge_count, tl.trainer, tl.reached_steps
        if k < len(known) and (known[k].left, known[k].right) == (left, right):
            return None, tl.step(1)  # the merge that follows anyway: nothing forks
        if trainer.pair_count(left, right) <= 0:
            raise BPELensError(f"the pair ({left}, {right}) does not occur at merge {k}")
        if limit_reached(tl.config, k, trainer.vocab_size, trainer.initial_vocab_size):
            raise BPELensError(f"training stops at merge {k}: pick at an earlier merge")
        branch = None
        if len(known) > k:
            self._save_current()
            cur = self.current
            bid = max(self._branches) + 1
            label = name or f"pick at merge {k + 1}: {tl.display(left)} + {tl.display(right)}"
            branch = Branch(bid, label, cur.id, k, {p: v for p, v in cur.picks.items() if p < k})
            self._branches[bid], self.current_id = branch, bid
        trainer.picks = {p: v for p, v in trainer.picks.items() if p < k}
        trainer.picks[k] = (left, right)
        tl.replace_future(k)
        return branch, tl.step(1)

    def switch(self, branch_id: int) -> List[MergeStep]:
        """Make ``branch_id`` current: the timeline shows its merges, at the position it was left at."""
        target = self.get(branch_id)
        if branch_id == self.current_id:
            return []
        tl = self.timeline
        self._settle()
        self._save_current()
        common = shared_prefix(self.current.steps, target.steps)
        tl.seek(min(tl.merge_count, common))
        tl.trainer.picks = dict(target.picks)
        tl.replace_future(common, target.steps[common:])
        self.current_id = branch_id
        return tl.seek(target.position)

    # -- questions --------------------------------------------------------------------------------------
    def tokens_of(self, branch_id: int) -> Dict[int, Raw]:
        """Token id -> token on ``branch_id`` (ids past the alphabet differ between branches)."""
        tl = self.timeline
        tokens = {i: tl.token(i) for i in range(tl.initial_vocab)}
        tokens.update((s.new_id, s.new_token) for s in self.steps_of(branch_id) if s.created)
        return tokens

    def model_of(self, branch_id: int) -> BPEModel:
        """Branch ``branch_id``'s vocabulary with every merge known on it (a tokenizer to diff with another)."""
        tokens, steps, tl = self.tokens_of(branch_id), self.steps_of(branch_id), self.timeline
        if tl.base_model.algorithm == "merges":  # its merges with their removals and token freqs (PickyBPE)
            return records_model(tl.base_model, steps, tl.initial_stats.total_tokens)
        now = tl.model()
        own = len(now.merges) - tl.merge_count  # a continued vocabulary's merges come first, on every branch
        return replace(now, tokens=[tokens[i] for i in range(len(tokens))], config=dict(now.config),
                       merges=list(now.merges[:own]) + [(s.left, s.right) for s in steps],
                       merge_counts=list(now.merge_counts[:own]) + [s.count for s in steps])

    def compare(self, a: int, b: int, *, words: Sequence[int] = (), limit: int = 20,
                depth: Optional[int] = None) -> BranchComparison:
        """Merges side by side from the fork, and the segmentations of ``words`` plus the most frequent
        words the two branches split differently, after ``depth`` merges on each (default: the fewer
        known)."""
        tl = self.timeline
        sa, sb = self.steps_of(a), self.steps_of(b)
        fork = shared_prefix(sa, sb)
        n = max(len(sa), len(sb))
        rows = tuple((r + 1, sa[r] if r < len(sa) else None, sb[r] if r < len(sb) else None)
                     for r in range(fork, n))
        depth = min(len(sa), len(sb)) if depth is None else depth
        initial = [tl.initial_segmentation(i) for i in range(len(tl.words))]
        seg_a, seg_b = WordChanges(initial), WordChanges(initial)
        ta, tb = self.tokens_of(a), self.tokens_of(b)
        changed = sorted({w for s in list(sa[fork:depth]) + list(sb[fork:depth]) for w in s.changed_words},
                         key=lambda w: (-tl.freqs[w], w))
        out, seen = [], set()
        for w in list(words) + changed:
            if w in seen:
                continue
            seen.add(w)
            x = tuple(display(ta[t]) for t in seg_a.segmentation(w, min(depth, len(sa)), sa))
            y = tuple(display(tb[t]) for t in seg_b.segmentation(w, min(depth, len(sb)), sb))
            if w in words or x != y:
                out.append((tl.words[w], tl.freqs[w], x, y))
            if len(out) >= limit + len(words):
                break
        names = (self.get(a).name, self.get(b).name)
        return BranchComparison(fork, names, rows, tuple(out), depth)

    # -- plain data (a workspace saves this) ------------------------------------------------------------
    def to_data(self) -> dict:
        """The branches as plain data: fork points, picks and merges as token strings (display form)."""
        out = []
        for br in self.all():
            tokens = self.tokens_of(br.id)
            out.append({"id": br.id, "name": br.name, "parent": br.parent, "fork": br.fork,
                        "position": br.position,
                        "picks": [[p, display(tokens[l]), display(tokens[r])] for p, (l, r) in sorted(br.picks.items())],
                        "merges": [[display(s.left_token), display(s.right_token)] for s in br.steps]})
        return {"current": self.current_id, "branches": out}

    @classmethod
    def from_data(cls, timeline: Timeline, data: dict) -> "Branches":
        """Rebuild saved branches on a fresh ``timeline`` of the same corpus and settings, by replaying
        their picks; a branch whose merges come out different raises :class:`BPELensError`."""
        if timeline.reached_steps:  # merges only read ahead (never shown) are the main branch's own: allowed
            raise BPELensError("branches are restored on a fresh timeline (merge 0, nothing reached)")
        self = cls(timeline)
        ids: Dict[int, int] = {}
        for saved in sorted(data["branches"], key=lambda d: d["id"]):
            parent = saved.get("parent")
            if parent is not None:
                self.switch(ids[parent])
                timeline.seek(saved["fork"])
            for p, left, right in saved["picks"]:
                if parent is not None and p < saved["fork"]:
                    continue
                timeline.seek(p)
                branch, _ = self.pick(*self._ids_of(left, right), name=saved["name"])
            ids[saved["id"]] = self.current_id
            self.current.name = saved["name"]
            timeline.seek(len(saved["merges"]))
            got = [[display(s.left_token), display(s.right_token)] for s in timeline.steps]
            if got[: len(saved["merges"])] != saved["merges"]:
                raise BPELensError(f"branch {saved['name']!r} does not replay on this corpus")
            timeline.seek(saved["position"])
        self.switch(ids[data["current"]])
        return self

    def _ids_of(self, left: str, right: str) -> Pair:
        trainer = self.timeline.trainer
        by_text = {display(trainer.token(i)): i for i in range(trainer.token_count)}
        try:
            return by_text[left], by_text[right]
        except KeyError:
            raise BPELensError(f"no token {left!r} or {right!r} at merge {trainer.merge_count}") from None
