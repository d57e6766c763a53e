"""Corpus stage: read files (plain or compressed, BOM, CRLF) and count their words."""
