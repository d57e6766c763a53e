"""Seed 000 (通俗易懂解读BPE分词算法实现): NLTK sentences + wordpunct words, ``</w>``, greedy encoder.

The appendix code of the seed ("BPE 分词器完整代码实现"), indentation restored, plus the encoding loop
from its "分词过程" section. Changes are marked ``# LENS:``:

- ``sent_tokenize`` is NLTK's own English Punkt tokenizer, loaded from the tables shipped in
  ``resources/punkt_tab/english`` (``nltk.download`` is impossible offline); nothing else differs.
- progress bars are disabled and files are closed (no effect on results).
- ``merge_vocab`` passes the merged symbol to ``re.sub`` as a function, not as a template: the seed's
  ``p.sub(''.join(pair), word)`` reads backslashes in the merged text as escapes (``\\`` + ``n`` would become
  a newline, ``\\`` + ``\\`` one backslash). The text intends a literal replacement. Identical on any corpus
  without ``\\``.
- ``train_bpe`` appends each merge and its count to ``merge_log`` (records only).

Known properties of the seed's code that are kept (the preset reproduces them):

- ``count_byte_freqs`` counts how many *distinct words* contain each final subword (not weighted by word
  frequency) and the ids are sorted by that count (stable: ties keep first-appearance order).
- ``freqs.update(merged_pair_freqs)`` then overwrites those counts for merged subwords with the pair's
  count at merge time (summed when two merges spell the same string), and adds subwords that no final word
  contains any more; those have no id, so the greedy encoder can build a token that maps to ``<unk>``.
- the greedy encoder merges, in each word, the adjacent pair whose concatenation has the highest ``freqs``
  value (leftmost on ties), whatever pairs the training merged.

>>> tok = train_texts(["Hello World , Hey Wow"], mincount=1, merges=3)
>>> tok["merges"]
[('H', 'e', 2), ('W', 'o', 2), ('He', 'l', 1)]
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import nltk
from nltk import wordpunct_tokenize
from nltk.data import FileSystemPathPointer
from nltk.tokenize.punkt import PunktTokenizer, load_punkt_params
from tqdm import tqdm, trange

from . import ROOT, ReferenceUnavailable, private_copy

#: where the project ships NLTK's English Punkt tables (nltk's ``tokenizers/punkt_tab/english``)
PUNKT_DIR = ROOT / "resources" / "punkt_tab" / "english"
PUNKT_FILES = ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab")


class _ShippedPunkt(PunktTokenizer):
    # LENS: nltk.sent_tokenize(text) is PunktTokenizer("english").tokenize(text); PunktTokenizer finds its
    # tables with nltk.data.find("tokenizers/punkt_tab/english/"). Same class, tables read from PUNKT_DIR.
    # nltk 3.10 reads data files only below a root on nltk.data.path, hence the append; nltk >= 3.10.4
    # only files private to their owner, hence a private copy (a checkout made with umask 002 has
    # group-writable files).
    def load_lang(self, lang: str = "english") -> None:
        tables = _private_tables()
        if str(tables.parents[1]) not in nltk.data.path:
            nltk.data.path.append(str(tables.parents[1]))
        self._params = load_punkt_params(FileSystemPathPointer(str(tables)))
        self._lang = lang
        self._save_dir = None


_PUNKT: Optional[_ShippedPunkt] = None
_TABLES: Optional[Path] = None


def _private_tables() -> Path:
    """PUNKT_DIR copied once per process into a private temporary folder (0700/0600)."""
    global _TABLES
    if _TABLES is None:
        root = Path(tempfile.mkdtemp(prefix="bpe-lens-punkt-"))  # mode 0700
        atexit.register(shutil.rmtree, root, True)
        (root / "punkt_tab").mkdir(mode=0o700)
        _TABLES = private_copy(PUNKT_DIR, root / "punkt_tab" / "english")
    return _TABLES


def punkt_missing() -> Optional[str]:
    """Why the English Punkt tables cannot be used, or None when they can."""
    missing = [f for f in PUNKT_FILES if not (PUNKT_DIR / f).is_file()]
    if missing:
        return f"English Punkt tables missing in {PUNKT_DIR}: {', '.join(missing)}"
    return None


def sent_tokenize(text: str) -> List[str]:
    global _PUNKT
    if _PUNKT is None:
        why = punkt_missing()
        if why:
            raise ReferenceUnavailable(why)
        _PUNKT = _ShippedPunkt("english")
    return _PUNKT.tokenize(text)


class BytePairTokenizer:
    def __init__(self, freqs: Dict[str, int], vocab_to_idx: Dict[str, int],
                 idx_to_vocab: Dict[int, str]):
        """ Initialize byte pair tokenizer
        Args:
            freqs: frequency dictionary of vocabulary
            vocab_to_index: map of vocabulary words to indices
            index_to_vocab: map of vocabulary indices to words
        """
        self.vocab_to_idx = vocab_to_idx
        self.idx_to_vocab = idx_to_vocab
        self.freqs = freqs
        self.sol = '<line/>'
        self.eol = '</line>'
        self.pad = '<pad>'
        self.unk = '<unk>'
        self.eow = '</w>'

    def get_sol(self) -> str:
        return self.sol

    def get_eol(self) -> str:
        return self.eol

    def get_pad(self) -> str:
        return self.pad

    def get_unk(self) -> str:
        return self.unk

    def get_eow(self) -> str:
        return self.eow

    def get_byte(self, byte_id: int) -> str:
        return self.idx_to_vocab[byte_id]

    def get_byte_id(self, byte: str) -> int:
        unk_id = self.vocab_to_idx[self.unk]
        bid = self.vocab_to_idx[byte] if byte in self.vocab_to_idx else unk_id
        return bid

    def get_byte_ids(self, bytes_):
        """ Get byte ids for each byte in provided list
        """
        ids = []
        for byte in bytes_:
            if byte in self.vocab_to_idx:
                ids.append(self.vocab_to_idx[byte])
            else:
                ids.append(self.vocab_to_idx[self.unk])
        return ids

    def get_bytes(self, byte_ids: List[int]) -> List[str]:
        tokens = []
        for byte_id in byte_ids:
            tokens.append(self.idx_to_vocab[byte_id])
        return tokens

    def merge_bytes(self, bytes_: List[str]) -> List[str]:
        bytes_, merged = self.merge_max_pair(bytes_)
        while merged:
            bytes_, merged = self.merge_max_pair(bytes_)
        return bytes_

    def merge_max_pair(self, bytes_: List[str]) -> (List[str], bool):
        max_pair = self.get_max_pair_idxs(bytes_)
        merged = True if max_pair is not None else False
        if merged:
            bytes_ = bytes_[:max_pair[0]] + \
                [''.join(bytes_[max_pair[0]:max_pair[1]+1])] + \
                bytes_[max_pair[1]+1:]
        return bytes_, merged

    def get_max_pair_idxs(self, bytes_) -> Tuple[int, int]:
        pairs = {}
        for i in range(1, len(bytes_)):
            pair = ''.join(bytes_[i-1:i+1])
            if pair in self.freqs:
                pairs[(i-1, i)] = self.freqs[pair]
        return None if len(pairs) == 0 else max(pairs, key=pairs.get)

    def save(self, path: str) -> None:
        with open(f'{path}/freqs.json', 'w', encoding='utf-8') as outfile:
            json.dump(self.freqs, outfile, indent=4, ensure_ascii=False)
        with open(f'{path}/vocab_to_idx.json', 'w', encoding='utf-8') as outfile:
            json.dump(self.vocab_to_idx, outfile, indent=4, ensure_ascii=False)
        with open(f'{path}/idx_to_vocab.json', 'w', encoding='utf-8') as outfile:
            json.dump(self.idx_to_vocab, outfile, indent=4, ensure_ascii=False)

    @staticmethod
    def load(path: str) -> 'BytePairTokenizer':
        with open(f'{path}/freqs.json', 'r', encoding='utf-8') as infile:
            freqs = json.load(infile)
        with open(f'{path}/vocab_to_idx.json', 'r', encoding='utf-8') as infile:
            vocab_to_idx = json.load(infile)
        with open(f'{path}/idx_to_vocab.json', 'r', encoding='utf-8') as infile:
            idx_to_vocab = json.load(infile)
        return BytePairTokenizer(freqs, vocab_to_idx, idx_to_vocab)

    @staticmethod
    def train_bpe(filepaths: List[str], mincount: int, merges: int,
                  merge_log: Optional[list] = None) -> 'BytePairTokenizer':
        vocab = create_vocab(filepaths)
        truncate_vocab(vocab, mincount)
        vocab = prepare_bpe_vocab(vocab)
        merged_pair_freqs = defaultdict(int)
        for _ in trange(merges, desc='Merging', disable=True):  # LENS: no progress bar
            pairs = get_stats(vocab)
            if not pairs:
                break
            best_pair = max(pairs.items(), key=lambda x: x[1])
            best_subword = ''.join(best_pair[0])
            best_freq = best_pair[1]
            merged_pair_freqs[best_subword] += best_freq
            if merge_log is not None:  # LENS: record the merge for the golden
                merge_log.append((best_pair[0][0], best_pair[0][1], best_freq))
            vocab = merge_vocab(best_pair[0], vocab)
        freqs = count_byte_freqs(vocab)
        vocab_to_idx, idx_to_vocab = create_vocab_maps(freqs)
        freqs.update(merged_pair_freqs)
        return BytePairTokenizer(freqs, vocab_to_idx, idx_to_vocab)


def create_vocab(filepaths: List[str]) -> Dict[str, int]:
    vocab = defaultdict(int)
    for path in tqdm(filepaths, desc='Creating vocabulary', disable=True):  # LENS: no progress bar
        with open(path, 'r', encoding='utf-8-sig') as f:  # LENS: close the file
            text = f.read()
        sentences = sent_tokenize(text)
        for sentence in sentences:
            tokens = wordpunct_tokenize(sentence)
            for token in tokens:
                vocab[token] += 1
    return vocab


def truncate_vocab(vocab: Dict[str, int], mincount: int) -> None:
    tokens = list(vocab.keys())
    for token in tokens:
        if vocab[token] < mincount:
            del(vocab[token])


def prepare_bpe_vocab(vocab: Dict[str, int]) -> Dict[str, int]:
    bpe_vocab = {}
    for token in vocab:
        ntoken = ' '.join(list(token)) + ' </w>'
        bpe_vocab[ntoken] = vocab[token]
    return bpe_vocab


def get_stats(vocab: Dict[str, int]) -> Dict[Tuple[str, str], int]:
    pairs = defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split()
        for i in range(len(symbols)-1):
            pairs[symbols[i], symbols[i+1]] += freq
    return pairs


def merge_vocab(pair: Tuple[str, str], v_in: Dict[str, int]) -> Dict[str, int]:
    bigram = re.escape(' '.join(pair))
    v_out = {}
    p = re.compile(r'(?<!\S)' + bigram + r'(?!\S)')
    merged = ''.join(pair)
    for word in v_in:
        # LENS: a function, so that "\" in the merged text is not read as a template escape
        w_out = p.sub(lambda m: merged, word)
        v_out[w_out] = v_in[word]
    return v_out


def count_byte_freqs(vocab: Dict[str, int]) -> Dict[str, int]:
    freqs = defaultdict(int)
    for word in vocab:
        bytes_ = word.split(' ')
        for byte in bytes_:
            freqs[byte] += 1
    for token in ['<line/>', '</line>', '<pad>', '<unk>']:
        freqs[token] += 1
    return freqs


def create_vocab_maps(freqs: Dict[str, int]) -> (Dict[str, int], Dict[int, str]):
    ordered_freqs = sorted(freqs.items(), key=lambda x: x[1], reverse=True)
    vocab_to_idx, idx_to_vocab = {}, {}
    for i in range(len(ordered_freqs)):
        word, freq = ordered_freqs[i]
        vocab_to_idx[word] = i
        idx_to_vocab[i] = word
    return vocab_to_idx, idx_to_vocab


# -- the encoding loop of "分词过程" -------------------------------------------------------------

def get_line_ids(line: str, tokenizer: BytePairTokenizer) -> List[int]:
    tokens = wordpunct_tokenize(line)
    tokens = [list(t) + ['</w>'] for t in tokens]
    lineids = []
    for token in tokens:
        token = tokenizer.merge_bytes(token)
        ids = tokenizer.get_byte_ids(token)
        lineids += ids
    sol_id = tokenizer.get_byte_id('<line/>')
    eol_id = tokenizer.get_byte_id('</line>')
    lineids = [sol_id] + lineids + [eol_id]
    return lineids


def encode_file(filepath: str, tokenizer: BytePairTokenizer) -> List[int]:
    with open(filepath, encoding='utf-8-sig') as f:  # LENS: close the file
        lines = sent_tokenize(f.read())
    tokens = []
    for line in lines:
        if len(line) > 1:
            tokens += get_line_ids(line, tokenizer)
    return tokens


# -- plain functions for the golden script and the tests (not seed code) ------------------------

def trio_texts(tokenizer: BytePairTokenizer) -> Dict[str, str]:
    """The three files ``save`` writes, as text: {"freqs.json": ..., "vocab_to_idx.json": ..., ...}."""
    with tempfile.TemporaryDirectory() as d:
        tokenizer.save(d)
        out = {}
        for name in ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json"):
            out[name] = Path(d, name).read_text(encoding="utf-8")
    return out


def train(paths: List[str], *, mincount: int = 1, merges: int) -> dict:
    """Run the seed's ``train_bpe`` on files; merges as (left, right, count) plus the trio."""
    log: list = []
    tok = BytePairTokenizer.train_bpe([os.fspath(p) for p in paths], mincount, merges, merge_log=log)
    return {"merges": log, "tokenizer": tok, "freqs": dict(tok.freqs),
            "vocab_to_idx": tok.vocab_to_idx, "idx_to_vocab": tok.idx_to_vocab}


def train_texts(texts: List[str], *, mincount: int = 1, merges: int) -> dict:
    """``train`` on one file holding ``texts`` joined by newlines (the seed only reads files)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "corpus.txt")
        path.write_text("\n".join(texts), encoding="utf-8")
        return train([path], mincount=mincount, merges=merges)


def encode_text(text: str, tokenizer: BytePairTokenizer) -> List[int]:
    """``encode_file`` on a file holding ``text``."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "input.txt")
        path.write_text(text, encoding="utf-8")
        return encode_file(str(path), tokenizer)
