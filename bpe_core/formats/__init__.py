"""Readers for vocabulary files; each returns a :class:`~bpe_core.model.BPEModel`.

Bad input raises :class:`~bpe_core.types.BPELensError` with a one-line message.
"""
from .gpt2_files import read_vocab_merges
from .hf_json import read_tokenizer_json
from .tiktoken_file import read_tiktoken

__all__ = ["read_tokenizer_json", "read_vocab_merges", "read_tiktoken"]
