"""The seeds' own BPE code, reconstructed, used to produce golden outputs.

One module per reference document in ``../shared/seeds``: ``seed000`` ... ``seed004``.
The code is the seed's code with its indentation restored; every change from it is marked
with a ``# LENS:`` comment saying why (see ``tests/reference/README.md`` and ``docs/seeds.md``).

Nothing here imports ``bpe_core``: goldens must never come from the code under test.
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.core.paths import ROOT, find


def private_copy(src: Path, dst: Path) -> Path:
    """Copy the folder ``src`` to ``dst`` readable and writable by its owner only (folders 0700, files
    0600), and return ``dst``. NLTK >= 3.10.4 refuses data files that are writable by the group or others
    ("a planted or rewritten file would be loaded as trusted data"): a checkout made with umask 002 has
    them, so the tests hand NLTK's own loader such a copy of the shipped Punkt tables, never the checkout's."""
    import shutil

    shutil.copytree(src, dst, dirs_exist_ok=True)
    for path in [dst, *dst.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)
    return dst


class ReferenceUnavailable(RuntimeError):
    """A reference cannot run on this machine (e.g. the Punkt tables are missing); the message says why."""


def _bytes_to_unicode() -> dict:
    # GPT-2's published table (encoder.py bytes_to_unicode), written out so bpe_core is not needed
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_GLYPH = _bytes_to_unicode()
GLYPH_BYTE = {g: b for b, g in BYTE_GLYPH.items()}


def glyphs(data: bytes) -> str:
    """Bytes as GPT-2 glyphs: ``b" the" -> "Ġthe"``."""
    return "".join(BYTE_GLYPH[b] for b in data)


def from_glyphs(text: str) -> bytes:
    return bytes(GLYPH_BYTE[c] for c in text)


# -- the corpora goldens are made from (a golden's "corpus" entry) --------------------------------

def corpus_path(spec: dict) -> Path:
    """``{"root": "shared"|"project", "path": ...}`` -> the file (a shared one from the real data, else
    its copy shipped in tests/data/real; ``corpus_bytes``'s hash check catches a short excerpt)."""
    return find(spec["path"]) if spec["root"] == "shared" else ROOT / spec["path"]


def raw_lines(path: Path) -> list:
    """The file's lines as bytes, each with its own line end (CRLF kept)."""
    return re.findall(rb"[^\n]*\n|[^\n]+$", Path(path).read_bytes())


def corpus_bytes(spec: dict) -> bytes:
    """The exact bytes a golden was made from: lines [start, stop) of the file, or all of it."""
    lines = raw_lines(corpus_path(spec))
    start, stop = spec.get("lines") or (0, len(lines))
    return b"".join(lines[start:stop])
