"""Progress for the command line: a tqdm bar on a terminal, one summary line in a log.

A bar redrawn with ``\\r`` is unreadable once stderr goes to a file or a CI log, so when stderr is
not a terminal each phase writes a single line when it ends (``merging: 100.0% 344/344 merges``).

>>> import io
>>> log = io.StringIO()
>>> with ProgressBar("merging", stream=log) as bar:
...     bar(Progress(3, 4, "merges")); bar(Progress(4, 4, "merges"))
>>> log.getvalue()
'merging: 100.0% 4/4 merges\\n'
"""
from __future__ import annotations

import shutil
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, TextIO, Tuple

from bpe_core.types import Progress


def _amount(p: Progress) -> str:
    if p.unit == "bytes":
        return f"{p.done / 1e6:.1f}/{p.total / 1e6:.1f} MB"
    return f"{p.done:,}/{p.total:,} {p.unit}".replace(",", "")


class ProgressBar:
    """A ``Progress`` callback for one phase; :meth:`close` (or leaving the ``with``) ends the phase."""

    def __init__(self, label: str, *, stream: Optional[TextIO] = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.last: Optional[Progress] = None
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._bar: Any = None
        self.closed = False

    def __call__(self, p: Progress) -> None:
        self.last = p
        if self.tty:
            self._draw(p)

    def _draw(self, p: Progress) -> None:
        if self._bar is None:
            from tqdm import tqdm  # only on a terminal: a log never pays the import
            scaled = p.unit == "bytes"
            # a terminal that reports no size (a pty under `script`, some CI runners) would get no bar
            # at all from tqdm (0 rows hide it): shutil falls back to 80x24
            size = shutil.get_terminal_size((80, 24))
            self._bar = tqdm(total=p.total or None, desc=self.label, unit="B" if scaled else f" {p.unit}",
                             unit_scale=scaled, unit_divisor=1000, file=self.stream, leave=True,
                             ncols=size.columns, nrows=size.lines, mininterval=0.1)
        if p.total and self._bar.total != p.total:
            self._bar.total = p.total
        self._bar.update(p.done - self._bar.n)

    def close(self, *, summary: bool = True) -> None:
        """End the phase: close the bar, or write the log's one line (not when the phase failed:
        the error message is then the only line)."""
        if self.closed:
            return
        self.closed = True
        if self._bar is not None:
            self._bar.close()
        elif summary and self.last is not None and not self.tty:
            p = self.last
            frac = min(1.0, p.done / p.total) if p.total else 1.0
            self.stream.write(f"{self.label}: {frac:.1%} {_amount(p)}\n")
            self.stream.flush()

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close(summary=exc_type is None)


@contextmanager
def read_then_replay(quiet: bool) -> Iterator[Callable[[Progress], None]]:
    """One progress callback for a vocabulary run over a corpus (``health``, ``tokens``): progress in bytes
    is the reading phase, anything after it the replay; the reading line is closed first. ``quiet``: none."""
    with ProgressBar("reading") as reading, ProgressBar("replaying") as replaying:
        def progress(p: Progress) -> None:
            if quiet:
                return
            if p.unit == "bytes":
                reading(p)
            else:
                reading.close()  # the reading phase is over: its line comes first
                replaying(p)
        yield progress


def vocabulary_and_corpus(args: Any) -> Tuple[list, Any]:
    """``args.corpus``'s files and ``args.vocab`` opened (``args.pattern`` for a .tiktoken file), after the
    ``--csv`` output is checked against both (never over an input): the start of ``health`` and ``tokens``."""
    from bpe_core.corpus.files import expand_paths
    from bpe_core.formats.detect import open_vocabulary
    from bpe_core.formats.outputs import check_save
    paths = expand_paths(args.corpus)
    if args.csv:
        check_save(args.csv, "csv", inputs=[str(p) for p in paths] + [args.vocab])
    return paths, open_vocabulary(args.vocab, pattern=args.pattern)
