"""Questions about a vocabulary: merge trees (lineage) and replay on a corpus."""
