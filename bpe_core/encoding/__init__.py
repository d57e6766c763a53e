"""Encoding stage: units, the merge routine, the encoder with spans, decoding, byte glyphs."""
