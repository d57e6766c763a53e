"""BPE variants of current research, each identical to its authors' code (docs/variants.md).

``picky``: PickyBPE (pchizhov/picky_bpe); ``picky_encode``: its ``picky_tokenize.py`` encoder.
"""
