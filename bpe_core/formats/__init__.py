"""Readers for vocabulary files; each returns a :class:`~bpe_core.model.BPEModel`.

Bad input raises :class:`~bpe_core.types.BPELensError` with a one-line message.
"""
from bpe_core.formats.gpt2_files import read_vocab_merges
from bpe_core.formats.hf_json import read_tokenizer_json
from bpe_core.formats.tiktoken_file import read_tiktoken

__all__ = ["read_tokenizer_json", "read_vocab_merges", "read_tiktoken"]
