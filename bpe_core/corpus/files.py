"""Several corpus files trained as one corpus: ``bpe-lens-cli train a.txt b.txt 'books/*.txt'``.

The words are counted as if the files were concatenated, each file's text ending with a line end
(as ``cat`` of text files gives): the counts are the same and, since the trainer breaks ties by
first appearance, so is the order of first appearance, hence the same merges. A per-line
pre-tokenizer never sees across a line end, so each file is counted on its own (in parallel
blocks when large) and the counts are merged in file order; a whole-text one (Punkt sentences)
gets the joined text, since a sentence may continue from one file into the next.

>>> import tempfile, os; d = tempfile.mkdtemp()
>>> for name, text in (("a.txt", "the cat\\n"), ("b.txt", "the end")):
...     _ = open(os.path.join(d, name), "w").write(text)
>>> [p.name for p in expand_paths([os.path.join(d, "*.txt")])]
['a.txt', 'b.txt']
>>> count_words_in_files(expand_paths([os.path.join(d, "*.txt")]), TrainerConfig(pretokenizer="whitespace"))
{'the': 2, 'cat': 1, 'end': 1}
"""
from __future__ import annotations

import glob
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from bpe_core.corpus.counting import (CancelFn, ProgressFn, count_whole_text, count_words, read_text,
                                      reads_as_tokenizers)
from bpe_core.types import BPELensError, Progress, TrainerConfig

_GLOB_CHARS = frozenset("*?[")


def expand_paths(arguments: Sequence[str]) -> List[Path]:
    """The files named by ``arguments``, in order: a path as given, a glob pattern expanded
    (sorted, so the order, and with it the merges, do not depend on the file system)."""
    paths: List[Path] = []
    for arg in arguments:
        if Path(arg).exists() or not _GLOB_CHARS & set(arg):
            paths.append(Path(arg))  # a missing plain path fails later with the reader's message
            continue
        found = sorted(glob.glob(arg, recursive=True))
        if not found:
            raise BPELensError(f"{arg}: no file matches this pattern")
        paths += [Path(f) for f in found if not Path(f).is_dir()]
    if not paths:
        raise BPELensError("no corpus file given")
    return paths


def _offset(progress: ProgressFn, before: int, total: int) -> ProgressFn:
    """Report one file's progress as part of all the files' bytes."""
    if progress is None:
        return None
    return lambda p: progress(Progress(before + p.done, total, "bytes"))


def _merge_in_order(total: Dict[str, int], part: Dict[str, int]) -> None:
    get = total.get
    for word, n in part.items():  # new words are appended: first appearance over all files
        total[word] = get(word, 0) + n


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # the reader reports the problem with the file's name


def count_words_in_files(paths: Sequence[Path], config: TrainerConfig, *, progress: ProgressFn = None,
                         cancel: CancelFn = None, workers: Optional[int] = None,
                         errors: str = "strict") -> Dict[str, int]:
    """Count the words of ``paths`` as one corpus (their concatenation), first appearance first."""
    if len(paths) == 1:
        return count_words(paths[0], config, progress=progress, cancel=cancel, workers=workers, errors=errors)
    from bpe_core.corpus.table import is_word_table
    from bpe_core.corpus.counting import pipeline_of

    tables = [p.name for p in paths if is_word_table(p)]
    if tables:
        raise BPELensError(f"{tables[0]}: a word-count table trains alone, not with other files")
    sizes = [_size(p) for p in paths]
    grand = sum(sizes)
    if not pipeline_of(config).per_line:
        raw = reads_as_tokenizers(config)
        texts = [read_text(p, errors=errors, cancel=cancel, as_tokenizers=raw) for p in paths]
        joined = "".join(t if t.endswith("\n") else t + "\n" for t in texts)
        counts = count_whole_text(joined, config, progress=progress, cancel=cancel, size=grand)
        if not counts:
            raise BPELensError(f"the pre-tokenizer {config.pretokenizer!r} found no words in {len(paths)} files")
        return counts
    total: Dict[str, int] = {}
    for i, path in enumerate(paths):
        part = count_words(path, config, progress=_offset(progress, sum(sizes[:i]), grand), cancel=cancel,
                           workers=workers, errors=errors)
        _merge_in_order(total, part)
    return total
