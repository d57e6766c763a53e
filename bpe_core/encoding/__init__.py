"""Encoding stage: the encoder with spans, decoding, seed 000's greedy encoder, an encoding advanced a merge."""
