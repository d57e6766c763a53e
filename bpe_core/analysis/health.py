"""Vocabulary health on a corpus: which tokens the corpus uses, which it never reaches, and why.

Built on :func:`~bpe_core.analysis.replay.replay_pieces` (per-merge counts on this corpus, dead
merges, unreachable tokens) plus the encoder's segmentation of every distinct word
(:class:`~bpe_core.analysis.replay.Segmenter`): a token's *usage* is how often it appears when the
corpus is encoded, so it equals tiktoken's / tokenizers' own token counts on the same text.

Each token gets one status, the first that holds:

* ``special`` - an added/special token (never made by merges);
* ``unreachable`` - no text can produce it through the merges (static: a part is unreachable, or
  made only by a later merge; or no merge makes it and it is no base unit);
* ``dead`` - the merge that makes it never fires on this corpus (its pair count is 0);
* ``consumed`` - made on this corpus but every occurrence merged further (usage 0);
* ``unused`` - the corpus never uses it (a base unit that does not occur, ...);
* ``used`` - usage > 0.

The corpus is read line by line (files one after the other, as their concatenation), so memory
holds the distinct words only. Several files also give fertility per file; else per script. Fertility's
tokens per word is the Measures chart's: a group's tokens over the whitespace-separated words of the text in
it, counted on the same reading (:mod:`bpe_core.analysis.fertility`); pieces given without their text divide
by the pieces (``HealthReport.per_word`` False: tokens per piece).

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "bc"], merges=[(0, 1), (3, 2), (1, 2)])
>>> h = health_of_pieces(m, [("x", {("abc", True): 3, ("bb", True): 1})])
>>> [(r.token, r.rank, r.usage, r.merge_count, r.status) for r in h.rows]
[('a', 0, 0, None, 'unused'), ('b', 0, 2, None, 'used'), ('c', 0, 0, None, 'unused'), ('ab', 1, 0, 3, 'consumed'), ('abc', 2, 3, 3, 'used'), ('bc', 3, 0, 0, 'dead')]
"""
from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.analysis.fertility import Fertility, Pieces, fertility_by_file, fertility_by_script
from bpe_core.analysis.replay import ReplayResult, Segmenter, count_words, replay_pieces
from bpe_core.analysis.scripts import words_by_script
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Progress

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]
STATUSES = ("used", "unused", "consumed", "dead", "unreachable", "special")
GROUPINGS = ("script", "file")
CSV_COLUMNS = ("id", "token", "rank", "usage", "merge_count", "status")


@dataclass(frozen=True)
class TokenHealth:
    """One token's row: ``rank`` is the 1-based merge that makes it (0 for a base unit or special);
    ``merge_count`` that merge's pair count on this corpus just before it applies (None: no merge)."""

    id: int
    token: str
    rank: int
    usage: int
    merge_count: Optional[int]
    status: str


@dataclass(frozen=True)
class HealthReport:
    replay: ReplayResult
    rows: Tuple[TokenHealth, ...]
    fertility: Tuple[Fertility, ...]
    by: str
    #: token occurrences when the corpus is encoded (the sum of the usages)
    tokens: int
    #: whether fertility divides by the text's whitespace-separated words (else by pieces: no text was given)
    per_word: bool = True

    def status_counts(self) -> Dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for r in self.rows:
            out[r.status] += 1
        return out

    def summary(self) -> Dict[str, int]:
        """The figures ``replay`` prints, plus the token statuses."""
        r = self.replay
        return {"distinct_words": r.distinct_words, "words": r.total_words, "tokens": self.tokens,
                "merges": len(r.merge_counts), "dead_merges": len(r.dead_merges),
                "consumed_tokens": len(r.consumed_tokens), "unreachable_tokens": len(r.unreachable_tokens),
                "late_merges": len(r.late_merges),
                **{f"status_{k}": v for k, v in self.status_counts().items()}}


def token_usage(model: BPEModel, pieces: Pieces, segmenter: Optional[Segmenter] = None) -> Dict[int, int]:
    """token id -> occurrences when every piece is encoded (word frequency weighted)."""
    seg = segmenter or Segmenter(model)
    usage: Dict[int, int] = defaultdict(int)
    for (word, suffix), n in pieces.items():
        for t in seg.segment_ids(word, suffix):
            if t >= 0:
                usage[t] += n
    return dict(usage)


def token_rows(model: BPEModel, result: ReplayResult, usage: Dict[int, int]) -> Tuple[TokenHealth, ...]:
    """Every token's row, by id (see the module doc for the statuses)."""
    unreachable = set(result.unreachable_tokens)
    specials = model.special_ids
    made_by = model.created_by
    rows: List[TokenHealth] = []
    for tid, raw in enumerate(model.tokens):
        if raw is None:
            continue
        rank = made_by.get(tid, 0)
        count = result.merge_counts[rank - 1] if rank else None
        used = usage.get(tid, 0)
        if tid in specials:
            status = "special"
        elif tid in unreachable:
            status = "unreachable"
        elif count == 0:
            status = "dead"
        elif used:
            status = "used"
        else:
            status = "consumed" if count else "unused"
        rows.append(TokenHealth(tid, model.display(tid), rank, used, count, status))
    return tuple(rows)


def merge_pieces(files: Sequence[Tuple[str, Pieces]]) -> Dict[Tuple[str, bool], int]:
    """Several files' pieces as one corpus (their concatenation): first appearance first."""
    total: Dict[Tuple[str, bool], int] = {}
    get = total.get
    for _name, pieces in files:
        for key, n in pieces.items():
            total[key] = get(key, 0) + n
    return total


def health_of_pieces(model: BPEModel, files: Sequence[Tuple[str, Pieces]], *, by: str = "script",
                     words: Optional[Sequence[Mapping[str, int]]] = None,
                     progress: ProgressFn = None, cancel: CancelFn = None) -> HealthReport:
    """The report for pieces already counted, file by file (``files``: (name, pieces) in order); ``words``:
    each file's whitespace-separated words by script (:func:`~bpe_core.analysis.scripts.text_words`), what
    fertility divides by (without them, the pieces)."""
    if by not in GROUPINGS:
        raise BPELensError(f"group fertility by one of {', '.join(GROUPINGS)}, not {by!r}")
    pieces = merge_pieces(files)
    result = replay_pieces(model, pieces, progress, cancel)
    seg = Segmenter(model)
    usage = token_usage(model, pieces, seg)
    if by == "file":
        fert = fertility_by_file(model, list(files), seg, None if words is None else [sum(w.values()) for w in words])
    else:
        fert = fertility_by_script(model, pieces, seg, None if words is None else sum(map(Counter, words), Counter()))
    return HealthReport(result, token_rows(model, result, usage), tuple(fert), by, sum(usage.values()),
                        words is not None)


def count_files(model: BPEModel, paths: Sequence[Path], *, errors: str = "strict", progress: ProgressFn = None,
                cancel: CancelFn = None, words: Optional[List[Counter]] = None) -> List[Tuple[str, Pieces]]:
    """Each file's pieces under the model's pipeline, streamed line by line (progress in bytes of all);
    ``words``, when given, gets each file's whitespace-separated words by script, counted on the same reading."""
    from bpe_core.corpus.counting import iter_lines
    sizes = [_size(p) for p in paths]
    out: List[Tuple[str, Pieces]] = []
    for k, path in enumerate(paths):
        before = sum(sizes[:k])
        report = None if progress is None else \
            (lambda p, before=before: progress(Progress(before + p.done, sum(sizes), "bytes")))
        lines = iter_lines(path, errors=errors, progress=report, cancel=cancel)
        seen: Counter = Counter()
        if words is not None:
            lines = _counting_words(lines, seen)
        out.append((Path(path).name, count_words(model, lines, cancel)))
        if words is not None:
            words.append(words_by_script(seen))
    return out


def _counting_words(lines: Iterable[str], seen: Counter) -> Iterator[str]:
    """``lines`` as they are, their whitespace-separated words counted into ``seen`` on the way."""
    for line in lines:
        seen.update(line.split())
        yield line


def vocabulary_health(model: BPEModel, paths: Sequence[Path], *, by: Optional[str] = None, errors: str = "strict",
                      progress: ProgressFn = None, cancel: CancelFn = None) -> HealthReport:
    """Read ``paths`` (one corpus) and report; ``by`` defaults to ``file`` for several files. The text is read
    once: its pieces and its words (what fertility divides by)."""
    words: List[Counter] = []
    files = count_files(model, paths, errors=errors, progress=progress, cancel=cancel, words=words)
    return health_of_pieces(model, files, by=by or ("file" if len(paths) > 1 else "script"), words=words,
                            progress=progress, cancel=cancel)


def usage_by_rank(rows: Iterable[TokenHealth], bins: int = 200) -> Tuple[List[float], List[float]]:
    """Mean usage of the merged tokens in ``bins`` equal slices of merge rank (x: slice centers):
    the curve a "usage by rank" chart draws, late glitch-prone ranks on the right.

    >>> usage_by_rank([TokenHealth(i, "", i, 10 - i, 1, "used") for i in range(1, 5)], bins=2)
    ([1.5, 3.5], [8.5, 6.5])
    """
    merged = sorted((r.rank, r.usage) for r in rows if r.rank)
    if not merged:
        return [], []
    size = max(1, -(-len(merged) // bins))
    xs, ys = [], []
    for k in range(0, len(merged), size):
        part = merged[k:k + size]
        xs.append(sum(r for r, _ in part) / len(part))
        ys.append(sum(u for _, u in part) / len(part))
    return xs, ys


def write_health_csv(rows: Iterable[TokenHealth], path) -> None:
    """The token table as CSV (UTF-8; tokens as displayed, GPT-2 glyphs for byte-level)."""
    from bpe_core.formats.atomic import atomic_write_text
    lines: List[List[str]] = [list(CSV_COLUMNS)]
    for r in rows:
        lines.append([str(r.id), r.token, str(r.rank), str(r.usage),
                      "" if r.merge_count is None else str(r.merge_count), r.status])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(lines)
    atomic_write_text(path, buf.getvalue())


def _size(path: Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
