"""BPE variants of current research, each identical to its authors' code (docs/variants.md).

``parity*``: parity-aware BPE; ``picky_model``: PickyBPE runs set up as pchizhov/picky_bpe trains.
"""
