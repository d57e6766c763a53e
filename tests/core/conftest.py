"""Shared fixtures for the corpus / pre-tokenizer / Punkt tests (real data: see paths.py)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterator

import pytest

from tests.reference import private_copy

from .paths import DATA, ROOT as REPO, need


class RealData:
    """Paths and texts of the real corpora in shared/data (the test skips if one is missing)."""

    root = DATA
    repo = REPO

    def path(self, rel: str) -> Path:
        return need(rel)

    def text(self, rel: str, limit: int = 0) -> str:
        """The file decoded like Python's open(encoding="utf-8-sig") (universal newlines)."""
        return _read(self.path(rel))[:limit] if limit else _read(self.path(rel))


@functools.lru_cache(maxsize=None)
def _read(path: Path) -> str:
    with open(path, encoding="utf-8-sig") as f:
        return f.read()


@pytest.fixture(scope="session")
def real() -> RealData:
    return RealData()


@pytest.fixture
def nltk_with_our_tables(tmp_path: Path) -> Iterator[None]:
    """Make plain ``nltk.sent_tokenize`` find our English tables (an nltk_data layout in tmp)."""
    import nltk
    from nltk.tokenize import _get_punkt_tokenizer

    for folder in (tmp_path / "tokenizers", tmp_path / "tokenizers" / "punkt_tab"):
        folder.mkdir(mode=0o700, exist_ok=True)
    private_copy(REPO / "resources" / "punkt_tab" / "english", tmp_path / "tokenizers" / "punkt_tab" / "english")
    saved = list(nltk.data.path)
    nltk.data.path[:] = [str(tmp_path)]
    _get_punkt_tokenizer.cache_clear()
    try:
        yield
    finally:
        nltk.data.path[:] = saved
        _get_punkt_tokenizer.cache_clear()
