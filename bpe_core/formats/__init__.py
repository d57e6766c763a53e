"""Vocabulary and workspace files: readers (each returns a :class:`~bpe_core.model.BPEModel`), writers,
the checks of an output path and atomic writes.

Bad input raises :class:`~bpe_core.types.BPELensError` with a one-line message.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.formats``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.formats.gpt2_files import read_vocab_merges
    from bpe_core.formats.hf_json import read_tokenizer_json
    from bpe_core.formats.tiktoken_file import read_tiktoken, KNOWN_ENCODINGS
    from bpe_core.formats.detect import detect_format
    from bpe_core.formats.atomic import atomic_write_bytes, atomic_write_text
    from bpe_core.formats.outputs import check_output, check_save, vocabulary_inputs
    from bpe_core.formats.temps import remove_stale_temps_in
    from bpe_core.formats.workspace import (SUFFIX as WORKSPACE_SUFFIX, CorpusRef, SavedMerges, Workspace,
                                            corpus_change, corpus_problem, corpus_ref, first_difference,
                                            is_workspace, merges_vocabulary, read_workspace, saved_merges,
                                            write_workspace)

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "read_vocab_merges": "gpt2_files",
    "read_tokenizer_json": "hf_json",
    "read_tiktoken": "tiktoken_file", "KNOWN_ENCODINGS": "tiktoken_file",
    "detect_format": "detect",
    "atomic_write_bytes": "atomic", "atomic_write_text": "atomic",
    "check_output": "outputs", "check_save": "outputs", "vocabulary_inputs": "outputs",
    "remove_stale_temps_in": "temps",
    "WORKSPACE_SUFFIX": "workspace:SUFFIX", "CorpusRef": "workspace", "SavedMerges": "workspace",
    "Workspace": "workspace", "corpus_change": "workspace", "corpus_problem": "workspace",
    "corpus_ref": "workspace", "first_difference": "workspace", "is_workspace": "workspace",
    "merges_vocabulary": "workspace", "read_workspace": "workspace", "saved_merges": "workspace",
    "write_workspace": "workspace",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
