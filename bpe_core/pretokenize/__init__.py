"""Pre-tokenize stage: text -> words (the registry of pre-tokenizers, Punkt sentences)."""
