"""The example corpora (``resources/examples``): each opens with its own seed's preset.

An example is only meaningful under the settings of the reference document it comes from (the
Chinese example under the current byte-level preset would show byte glyphs such as ``è ĩ º``), so
File → Examples loads each one with its preset and the settings that document published
(``resources/examples/README.md`` lists them), under a name a person can read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Tuple

from bpe_core import TrainerConfig, make_config, resources

__all__ = ["Example", "EXAMPLES", "EXAMPLES_DIR"]

EXAMPLES_DIR = resources.resource("examples")


@dataclass(frozen=True)
class Example:
    """One example corpus: its file (in :data:`EXAMPLES_DIR`), seed, content and settings."""

    file: str
    seed: str
    content: str
    preset: str
    overrides: Dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """``Seed 004: Chinese + English (cjk-mixed)`` — the menu entry."""
        return f"Seed {self.seed}: {self.content} ({self.preset})"

    @property
    def path(self) -> Path:
        return EXAMPLES_DIR / self.file

    def config(self) -> TrainerConfig:
        return make_config(self.preset, **self.overrides)


EXAMPLES: Tuple[Example, ...] = (
    Example("seed000_hello.txt", "000", "Hello World, Hey Wow", "nltk-wordpunct"),
    Example("seed001_sentence.txt", "001", "the lowest price is lower…", "byte-ascii"),
    Example("seed002_words.txt", "002", "highest, higher, lower, lowest…", "char-whitespace", {"vocab_size": 17}),
    Example("seed003_sentences.txt", "003", "the Hugging Face course's sentences", "hf-course", {"vocab_size": 50}),
    Example("seed004_mixed.txt", "004", "Chinese + English", "cjk-mixed", {"num_merges": 50}),
    Example("seed004_zh_en_de.txt", "004", "Chinese, English and German novels", "cjk-mixed", {"num_merges": 200}),
)
