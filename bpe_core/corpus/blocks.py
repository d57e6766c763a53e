"""A corpus of many files as independent blocks, each counted on its own with first appearances.

Counting is embarrassingly parallel once the files are cut into blocks at safe places: after a
``\\n`` (per-line pre-tokenizers never see across one) or, in a huge line, before a space that
follows an ASCII letter or digit (where ``PreTokenizer.cut_at_space`` says no word spans). Then
the words of the blocks, concatenated in order, are exactly the words of the whole files, so
summing the blocks' counts gives the sequential counts.

The first-seen order survives too: a word's first appearance is the smallest ``(file, offset)``
over its occurrences, where ``offset`` is the block's start (a byte offset in the decompressed
file) plus the word's rank among the block's distinct words. That rank is smaller than the
block's length, so keys of different blocks never interleave: sorting by the key gives the
order of first appearance over the whole corpus, whatever order the blocks were counted in.

>>> import tempfile, os; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt")
>>> _ = open(f, "w").write("the cat\\nthe end\\n")
>>> cfg = TrainerConfig(pretokenizer="whitespace")
>>> part = count_block_part(Block(0, f, 0, os.path.getsize(f)), cfg)
>>> sorted(part.words.items(), key=lambda kv: kv[1][1:])
[('the', [2, 0, 0]), ('cat', [1, 0, 1]), ('end', [1, 0, 2])]
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import regex

from bpe_core.corpus.counting import BLOCK_BYTES, ProgressFn, count_block, decode_block, pipeline_of, reads_as_tokenizers
from bpe_core.base.file_errors import not_text_message
from bpe_core.corpus.source import BINARY_SNIFF_BYTES, CancelFn, Source
from bpe_core.base.units import check_text
from bpe_core.formats.json_text import parse_json
from bpe_core.types import BPELensError, TrainerConfig

_BOM = b"\xef\xbb\xbf"
_SPACE_CUT = regex.compile(rb"[A-Za-z0-9](?= )")
_WINDOW = 1 << 16
#: a word's count and first appearance, ``[count, file, offset]`` (lists: merged in place)
Entry = List[int]


#: a corpus counted: each word's count in first-seen order, and each word's first (file, offset)
Counted = Tuple[Dict[str, int], List[Tuple[int, int]]]


def size_of(path: Path) -> int:
    """The file's size in bytes; 0 when it cannot be read (opening it then names the problem)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0  # opening it names the problem


def whole_text_counts(paths: Sequence[Path], config: TrainerConfig, errors: str, progress: ProgressFn,
                      cancel: CancelFn) -> Counted:
    """Count with a whole-text pre-tokenizer (Punkt): the offsets are the words' ranks in the one text."""
    from bpe_core.corpus.files import count_words_in_files

    counts = count_words_in_files(paths, config, progress=progress, cancel=cancel, errors=errors)
    return counts, [(0, rank) for rank in range(len(counts))]


def one_text(config: TrainerConfig, text_field: Optional[str]) -> bool:
    """True when counting cannot be cut into blocks: Punkt splits sentences over the whole text."""
    return not pipeline_of(config).per_line and text_field is None


@dataclass(frozen=True)
class Block:
    """One unit of counting work. ``end`` None with no ``data``: the whole file, streamed by the
    worker (a compressed file cannot be entered in the middle)."""

    file: int
    path: str
    start: int
    end: Optional[int]
    data: Optional[bytes] = None  # the bytes, when the caller read them (local engine, compressed file)


@dataclass
class Part:
    """Counted blocks: each word's count and first appearance, and which files held any text."""

    words: Dict[str, Entry] = field(default_factory=dict)
    seen: Set[int] = field(default_factory=set)      # files with any bytes
    texts: Set[int] = field(default_factory=set)     # files with a non-space character

    def update(self, other: "Part") -> None:
        """Fold ``other`` in: counts summed, the earlier first appearance kept."""
        self.seen |= other.seen
        self.texts |= other.texts
        get, words = self.words.get, self.words
        for word, (n, f, o) in other.words.items():
            e = get(word)
            if e is None:
                words[word] = [n, f, o]
            else:
                e[0] += n
                if (f, o) < (e[1], e[2]):
                    e[1], e[2] = f, o

    def add(self, counts: Dict[str, int], file: int, offset: int) -> None:
        """Add one block's counts (first-seen order within the block) found at ``offset``."""
        get, words = self.words.get, self.words
        for rank, (word, n) in enumerate(counts.items()):
            e = get(word)
            if e is None:
                words[word] = [n, file, offset + rank]
            else:
                e[0] += n
                if (file, offset + rank) < (e[1], e[2]):
                    e[1], e[2] = file, offset + rank


def merge_parts(parts: Iterable[Part]) -> Part:
    """The parts as one: counts summed, each word's earliest first appearance kept.

    The biggest part is copied and the others folded into the copy (never into an input: Dask may
    hand the same result to a retried task)."""
    parts = list(parts)
    if not parts:
        return Part()
    big = max(parts, key=lambda p: len(p.words))
    out = Part({w: list(e) for w, e in big.words.items()}, set(big.seen), set(big.texts))
    for p in parts:
        if p is not big:
            out.update(p)
    return out


def ordered(part: Part) -> Tuple[Dict[str, int], List[Tuple[int, int]]]:
    """The counts in order of first appearance and each word's ``(file, offset)``."""
    items = sorted(part.words.items(), key=lambda kv: (kv[1][1], kv[1][2]))
    return {w: e[0] for w, e in items}, [(e[1], e[2]) for _, e in items]


# -- planning ------------------------------------------------------------------------------------------
def find_cut(f: BinaryIO, target: int, at_space: bool) -> Optional[int]:
    """The first safe place at or after ``target`` in an open binary file: after a ``\\n``, or (with
    ``at_space``) before a space that follows an ASCII letter or digit. None: no safe place follows."""
    pos = max(target - 1, 0)  # one byte early: a newline there cuts at target; a letter there may
    while True:                # be followed by a space at target
        f.seek(pos)
        window = f.read(_WINDOW)
        nl = window.find(b"\n")
        best = pos + nl + 1 if nl >= 0 else None
        if at_space:
            m = _SPACE_CUT.search(window)
            if m is not None:  # m.end() >= 1: the space's position, never before target
                best = pos + m.end() if best is None else min(best, pos + m.end())
        if best is not None:
            return best
        if len(window) < _WINDOW:
            return None
        pos += len(window) - 1  # keep the last byte: a letter whose space starts the next window


def plan_blocks(paths: Sequence[Path], config: TrainerConfig, *, chunk: int, jsonl: bool = False,
                whole_compressed: bool = True, cancel: CancelFn = None) -> Iterator[Block]:
    """The blocks of ``paths`` in corpus order. A plain file is cut into ranges of about ``chunk``
    bytes that workers read themselves; a compressed one is one streamed block
    (``whole_compressed``) or read here and handed over block by block."""
    at_space = pipeline_of(config).cut_at_space and not jsonl
    keep_bom = reads_as_tokenizers(config)
    for i, path in enumerate(paths):
        src = Source(path)  # refuses folders, pipes and missing files with the file's name
        try:
            if src.total == 0:
                raise BPELensError(f"{src.name}: the file is empty")
            if src.kind != "text":
                if whole_compressed:
                    yield Block(i, str(path), 0, None)
                else:
                    for data, offset, _ in src.blocks(chunk, cancel, keep_bom=keep_bom, cut_at_space=at_space):
                        yield Block(i, str(path), offset, offset + len(data), data)
                continue
            start = 0
            while start < src.total:
                cut = find_cut(src.raw, start + chunk, at_space)  # type: ignore[arg-type] if start + chunk < src.total else None
                end = src.total if cut is None or cut >= src.total else cut
                yield Block(i, str(path), start, end)
                start = end
        finally:
            src.close()


# -- counting ------------------------------------------------------------------------------------------
def _read_range(block: Block) -> bytes:
    with open(block.path, "rb") as f:
        f.seek(block.start)
        return f.read((block.end or 0) - block.start)


def count_jsonl(name: str, data: bytes, offset: int, config: TrainerConfig, errors: str,
                text_field: str) -> Tuple[Dict[str, int], bool]:
    """Count the words of one block of JSON lines: each record's ``text_field`` is one text, split
    whole (as ``Trainer.from_texts`` and tokenizers' ``train_from_iterator`` take a text)."""
    text = decode_block(name, data, offset, errors, universal=False)
    pre = pipeline_of(config)
    counts: Counter[str] = Counter()
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = parse_json(line, name)
            value = record[text_field]
            if not isinstance(value, str):
                raise TypeError(f"{text_field!r} is {type(value).__name__}, not text")
            check_text(value)  # JSON's "\\ud800" escapes make lone surrogates: no UTF-8, no bytes to count
            counts.update(pre.words(value))  # a user pattern may time out
        except (ValueError, KeyError, TypeError, BPELensError) as exc:
            at = offset + len("\n".join(lines[:n]).encode("utf-8")) + (1 if n else 0)
            why = f"no field {text_field!r}" if isinstance(exc, KeyError) else str(exc).replace(f"{name}: ", "", 1)
            raise BPELensError(f"{name}: the JSON line at byte {at}: {why}") from None
    return dict(counts), bool(counts)


def _count_data(part: Part, block: Block, name: str, data: bytes, offset: int, config: TrainerConfig,
                errors: str, text_field: Optional[str]) -> None:
    if not data:
        return
    part.seen.add(block.file)
    if text_field is None:
        counts, has_text = count_block(name, data, offset, config, errors)
    else:
        counts, has_text = count_jsonl(name, data, offset, config, errors, text_field)
    if has_text:
        part.texts.add(block.file)
    part.add(counts, block.file, offset)


def count_block_part(block: Block, config: TrainerConfig, errors: str = "strict",
                     text_field: Optional[str] = None) -> Part:
    """Count one block (in a worker process, or inline)."""
    part = Part()
    name = Path(block.path).name
    if block.data is None and block.end is None:
        src = Source(block.path)
        at_space = pipeline_of(config).cut_at_space and text_field is None
        try:
            for data, offset, _ in src.blocks(BLOCK_BYTES, None, keep_bom=reads_as_tokenizers(config),
                                              cut_at_space=at_space):
                _count_data(part, block, name, data, offset, config, errors, text_field)
        finally:
            src.close()
        return part
    data = block.data if block.data is not None else _read_range(block)
    offset = block.start
    if block.data is None and block.start == 0:
        problem = not_text_message(name, data[:BINARY_SNIFF_BYTES], block.path)
        if problem is not None:  # UTF-16 (said, with how to convert) or binary
            raise BPELensError(problem)
        if not reads_as_tokenizers(config) and data.startswith(_BOM):
            data, offset = data[3:], 3
    _count_data(part, block, name, data, offset, config, errors, text_field)
    return part


def count_partition(blocks: Iterable[Block], config: TrainerConfig, errors: str = "strict",
                    text_field: Optional[str] = None) -> Part:
    """Count several blocks into one part (a Dask partition's work)."""
    part = Part()
    for block in blocks:
        part.update(count_block_part(block, config, errors, text_field))  # ours: folded in place
    return part


def check_texts(paths: Sequence[Path], part: Part) -> None:
    """Name the first file that held no text (as reading it alone would)."""
    for i, path in enumerate(paths):
        if i not in part.seen:
            raise BPELensError(f"{path.name}: the file is empty")
        if i not in part.texts:
            raise BPELensError(f"{path.name}: the file contains only whitespace")
