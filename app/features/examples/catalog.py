"""The example corpora (``resources/examples``): each opens with its own seed's preset.

An example is only meaningful under the settings of the reference document it comes from (the
Chinese example under the current byte-level preset would show byte glyphs such as ``è ĩ º``), so
File → Examples loads each one with its preset and the settings that document published
(``resources/examples/README.md`` lists them), under a name a person can read.

A guided example goes further than opening its corpus: "How fair is this tokenizer?" trains GPT-2's
byte-level BPE on a parallel text (the same 96 lines in 8 languages, ``resources/examples/parallel``) to its
merges, then opens the Measures chart on the same language files with the parity measure
(:mod:`.opening` does it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from bpe_core import TrainerConfig, make_config, resources

__all__ = ["Example", "EXAMPLES", "EXAMPLES_DIR"]

EXAMPLES_DIR = resources.resource("examples")


@dataclass(frozen=True)
class Example:
    """One example corpus: its file or folder (in :data:`EXAMPLES_DIR`), seed, content and settings."""

    file: str
    seed: str
    content: str
    preset: str
    overrides: Dict[str, Any] = field(default_factory=dict)
    #: a guided example's menu entry (it is no seed's); empty for a seed's example
    name: str = ""
    #: after training to its merges, the Measures chart opens on the example's files with this measure ...
    measure: Optional[str] = None
    #: ... this group picked ("file:tam": one language) and a point every ``every`` merges
    group: str = "all"
    every: Optional[int] = None
    #: the language parity is measured against (its file comes first among the evaluation files)
    reference: Optional[str] = None
    #: settings of a second run trained beside the first on the same language folder, to the same merge
    #: (parity-aware BPE: ``{"variant": "parity"}``), so that the chart compares the two; empty: none
    beside: Dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """``Seed 004: Chinese + English (cjk-mixed)`` — the menu entry."""
        return self.name or f"Seed {self.seed}: {self.content} ({self.preset})"

    @property
    def path(self) -> Path:
        return EXAMPLES_DIR / self.file

    def files(self) -> Tuple[Path, ...]:
        """The corpus's files: the example's file, or a folder's ``.txt`` files (one per language), sorted."""
        if self.path.is_dir():
            return tuple(sorted(p for p in self.path.iterdir() if p.suffix == ".txt"))
        return (self.path,)

    def eval_files(self) -> Tuple[Path, ...]:
        """The files the Measures chart opens on: the example's files, the reference language's first."""
        return tuple(sorted(self.files(), key=lambda p: p.stem != self.reference))

    def config(self) -> TrainerConfig:
        return make_config(self.preset, **self.overrides)


EXAMPLES: Tuple[Example, ...] = (
    Example("seed000_hello.txt", "000", "Hello World, Hey Wow", "nltk-wordpunct"),
    Example("seed001_sentence.txt", "001", "the lowest price is lower…", "byte-ascii"),
    Example("seed002_words.txt", "002", "highest, higher, lower, lowest…", "char-whitespace", {"vocab_size": 17}),
    Example("seed003_sentences.txt", "003", "the Hugging Face course's sentences", "hf-course", {"vocab_size": 50}),
    Example("seed004_mixed.txt", "004", "Chinese + English", "cjk-mixed", {"num_merges": 50}),
    Example("seed004_zh_en_de.txt", "004", "Chinese, English and German novels", "cjk-mixed", {"num_merges": 200}),
    Example("parallel", "", "the same news in 8 languages (NTREX-128)", "gpt2", {"num_merges": 2000},
            name="How fair is this tokenizer?", measure="parity", group="file:tam", every=100, reference="eng",
            beside={"variant": "parity"}),
)
