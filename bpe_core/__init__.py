"""bpe_core: a Qt-free library that trains, steps, undoes and inspects Byte-Pair Encoding."""
__version__ = "0.1.0"
