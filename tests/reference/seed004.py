r"""Seed 004 (CODE05: 实现 BPE 分词, ZOMI): Chinese/English mixed BPE.

Two classes:

- ``SeedCodeBPE`` is the seed's code exactly as published (indentation restored, ``print`` kept). It is
  here only to show what that code does; no golden comes from it.
- ``BPE`` is the reference for the ``cjk-mixed`` preset: the seed's pre-processing and loop, with the
  changes the text intends, each marked ``# LENS:``.

What the seed's code does, against what its text says (line evidence in ``docs/seeds.md``):

1. ``train`` counts *pre-processed sentences* (``Counter(processed_corpus)``) and splits each sentence
   into symbols with ``word.split()``: the "words" are whole sentences, so pairs and merges cross word
   boundaries (``n </w> 编`` gives the pair ``('</w>', '编')``), while the text says merges stay inside words.
2. ``get_pairs`` returns a ``set``: a pair that occurs twice in a sentence is counted once per sentence,
   and ties among equal counts follow set iteration order, which for ``str`` depends on the per-process
   hash seed (``PYTHONHASHSEED``): two runs of the same script can learn different merges.
3. ``tokenize`` splits the pre-processed text with ``processed.split()`` into *single symbols* and then
   runs the merges on ``list(word)`` of each symbol, so nothing is ever merged and ``'</w>'`` comes out as
   ``'<', '/', 'w', '>'``. The printed result (``'I</w>'``, ``'e</w>'``, ``'.</w>'``) cannot come from
   this code. Nor from any fix of it: ``'.'`` is punctuation, which ``preprocess`` never gives a
   ``</w>`` (``'.</w>'`` would need ``.`` to be handled like a Latin word).
4. The printed training log ("当前词汇表大小: 178, 268, ..., 538") grows by 90 per 10 merges, 9 per merge;
   ``self.vocab[new_vocab_entry] = ...`` adds at most one entry per merge. The log cannot come from this
   code (on its corpus the code starts from 85 symbols and ends with 135 after 50 merges).
5. The printed ``preprocess`` example ``我 爱 P y t h o n  </w>编 程 ！`` is not what the code returns
   (``我 爱 P y t h o n </w> 编 程 ！``).
6. ``_merge_pair`` passes the merged text to ``re.sub`` as a template, so a backslash in it is read as an
   escape.
7. ``preprocess`` classifies a ``\w`` run by its first character only (``re.match``): ``中文abc`` becomes
   ``中 文 a b c`` (no ``</w>``), ``Python编程`` ``P y t h o n 编 程 </w>``, and a run that starts with neither
   ``[\u4e00-\u9fff]`` nor ``[a-zA-Z0-9]`` (``élan``, ``のテキスト``, ``한국어``, ``㐀㐁``) stays one symbol.

The reference ``BPE`` (issue 10, reading the text: "中文按字符分割" beside "英文按字母分割" both split a
word into *symbols*): the seed's split; each ``\w`` run is cut into runs of Unicode script Han and the runs
between them; a Han run is one word whose symbols are its characters, no ``</w>``; any other run of word
characters (Latin, digits, accented letters, kana, Hangul...) is its characters plus ``</w>``; a punctuation
character is a word of one symbol. Pairs are counted per occurrence, weighted by the word's count; merges
never cross words; the tie rule is the first maximum of an insertion-ordered dict that is filled scanning
words in order of first appearance, symbols left to right; ``tokenize`` applies the merges in learned order
inside each word and returns token strings.

>>> bpe = BPE(num_merges=2)
>>> bpe.words("我爱 Python 编程！")
['我 爱', 'P y t h o n </w>', '编 程', '！']
>>> bpe.words("日本語のテキスト、한국어 café")
['日 本 語', 'の テ キ ス ト </w>', '、', '한 국 어 </w>', 'c a f é </w>']
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict

import regex


corpus = [
    "自然语言处理是人工智能的一个重要分支。",
    "BPE 是一种常用的分词算法，广泛应用于 NLP 领域。",
    "Python 是一种简单易学的编程语言，非常适合快速开发。",
    "Machine learning is a subset of artificial intelligence.",
    "Byte Pair Encoding is widely used in large language models.",
    "Natural language processing enables computers to understand human language.",
    "我爱自然语言处理，也喜欢 Python 编程。",
    "The quick brown fox jumps over the lazy dog."
]
CORPUS = tuple(corpus)

test_texts = [
    "自然语言处理很有趣！",
    "I love Python and natural language processing.",
    "BPE 算法能够有效处理中英文混合文本。"
]
TEST_TEXTS = tuple(test_texts)

#: the seed's printed tokenize output for TEST_TEXTS (cannot come from its code, see above)
PRINTED_TOKENS = (
    ['自', '然', '语', '言', '处', '理', '很', '有', '趣', '！'],
    ['I</w>', 'l', 'o', 'v', 'e</w>', 'P', 'y', 't', 'h', 'o', 'n</w>', 'a', 'n', 'd</w>', 'n', 'a', 't', 'u',
     'r', 'a', 'l</w>', 'l', 'a', 'n', 'g', 'u', 'a', 'g', 'e</w>', 'p', 'r', 'o', 'c', 'e', 's', 's', 'i',
     'n', 'g', '.</w>'],
    ['B', 'P', 'E', '算', '法', '能', '够', '有', '效', '处', '理', '中', '英', '文', '混', '合', '文', '本',
     '。'],
)


class SeedCodeBPE:
    """The seed's code as published (not a reference: see the module docstring)."""

    def __init__(self, num_merges=100):
        self.num_merges = num_merges  # 最大合并次数
        self.vocab = {}  # 词汇表
        self.merges = {}  # 记录合并历史

        # 正则表达式用于匹配非中英文、非单词字符和空白
        self.pattern = re.compile(r'([^\u4e00-\u9fff\w\s])|(\s+)')

    def preprocess(self, text):
        """预处理文本，分离中英文和特殊字符"""

        # 分割文本为 tokens，保留中文、英文单词和特殊字符
        tokens = self.pattern.split(text)
        tokens = [t for t in tokens if t and t.strip() != '']

        processed = []

        for token in tokens:
            if re.match(r'[\u4e00-\u9fff]+', token):  # 中文
                # 中文按字符分割，用空格连接
                processed.append(' '.join(list(token)))
            elif re.match(r'[a-zA-Z0-9]+', token):  # 英文/数字
                # 英文按字符分割，添加词尾标记，用空格连接
                processed.append(' '.join(list(token)) + ' </w>')
            else:  # 特殊字符
                # 特殊字符直接作为一个 token
                processed.append(token)

        return ' '.join(processed)

    def get_pairs(self, word):
        """获取词内部的相邻字符对"""
        pairs = set()

        prev_char = word[0]
        for char in word[1:]:
            pairs.add((prev_char, char))
            prev_char = char

        return pairs

    def _merge_pair(self, word_counts, pair, new_entry):
        """将词表中的指定字符对合并为新的条目"""

        merged_word_counts = defaultdict(int)
        bigram = re.escape(' '.join(pair))

        # 确保只匹配整个词中的这对字符
        pattern = re.compile(r'(?<!\S)' + bigram + r'(?!\S)')

        for word, count in word_counts.items():
            # 替换所有出现的字符对
            merged_word = pattern.sub(new_entry, word)
            merged_word_counts[merged_word] += count

        return merged_word_counts

    def train(self, corpus):
        """训练 BPE 模型"""

        # 预处理语料
        processed_corpus = [self.preprocess(text) for text in corpus]

        # 统计每个词的出现次数
        word_counts = Counter(processed_corpus)

        # 初始化词汇表：所有单个字符
        vocab = defaultdict(int)

        for word, count in word_counts.items():
            chars = word.split()
            for char in chars:
                vocab[char] += count

        self.vocab = dict(vocab)

        # 开始合并过程
        for i in range(self.num_merges):
            # 统计所有相邻字符对的出现次数
            pairs = defaultdict(int)

            for word, count in word_counts.items():
                chars = word.split()
                if len(chars) < 2:
                    continue
                for pair in self.get_pairs(chars):
                    pairs[pair] += count

            if not pairs:
                break  # 没有更多可合并的对

            # 找到出现次数最多的字符对
            best_pair = max(pairs, key=pairs.get)
            self.merges[best_pair] = i  # 记录合并顺序

            # 合并最佳字符对
            new_vocab_entry = ''.join(best_pair)
            self.vocab[new_vocab_entry] = pairs[best_pair]

            # 更新词表
            word_counts = self._merge_pair(word_counts, best_pair, new_vocab_entry)

            if (i + 1) % 10 == 0:
                print(f"完成第 {i + 1}/{self.num_merges} 次合并，当前词汇表大小: {len(self.vocab)}")

        print(f"BPE 训练完成，总合并次数: {len(self.merges)}，最终词汇表大小: {len(self.vocab)}")

    def tokenize(self, text):
        """使用训练好的 BPE 模型对文本进行分词"""
        if not self.merges:
            raise ValueError("BPE 模型尚未训练，请先调用 train 方法")

        # 预处理文本
        processed = self.preprocess(text)
        words = processed.split()

        # 对每个词应用合并规则
        tokens = []
        for word in words:
            if len(word) == 1:  # 单个字符直接作为 token
                tokens.append(word)
                continue

            # 初始化字符列表
            chars = list(word)
            # 应用所有合并规则（按学习顺序）
            for (a, b), _ in sorted(self.merges.items(), key=lambda x: x[1]):
                i = 0
                while i < len(chars) - 1:
                    if chars[i] == a and chars[i+1] == b:
                        # 合并这两个字符
                        chars = chars[:i] + [a + b] + chars[i+2:]
                    else:
                        i += 1

            tokens.extend(chars)

        # 后处理：移除词尾标记中的空格
        tokens = [token.replace(' </w>', '</w>') for token in tokens]
        return tokens


# LENS: a \w run is cut into runs of Unicode script Han and the runs between them
HAN_RUNS = regex.compile(r'\p{Han}+|\P{Han}+')
HAN = regex.compile(r'\p{Han}')
PUNCT = re.compile(r'[^\u4e00-\u9fff\w\s]')


class BPE:
    """The reference for the ``cjk-mixed`` preset: the seed's code with the text's intent."""

    def __init__(self, num_merges=100):
        self.num_merges = num_merges  # 最大合并次数
        self.vocab = {}  # 词汇表
        self.merges = {}  # 记录合并历史
        self.merge_counts = []  # LENS: each merge's count, recorded for the goldens

        # 正则表达式用于匹配非中英文、非单词字符和空白
        self.pattern = re.compile(r'([^\u4e00-\u9fff\w\s])|(\s+)')

    def words(self, text):
        """The text's words, each as its symbols joined by spaces (the seed's ``preprocess``, per word).

        LENS: the seed returns one string for the whole text; here each word is kept apart so that
        pairs and merges stay inside words.
        """
        tokens = self.pattern.split(text)
        tokens = [t for t in tokens if t and t.strip() != '']

        processed = []

        for token in tokens:
            if PUNCT.fullmatch(token):  # 特殊字符: one symbol, no </w>
                processed.append(token)
                continue
            # LENS: the seed looks only at the token's first character ('中文abc' -> '中 文 a b c', no
            # </w>; 'のテキスト' or 'élan' -> one symbol); the text splits every word into its symbols
            for piece in HAN_RUNS.findall(token):
                if HAN.match(piece):  # 中文: its characters, no </w>
                    processed.append(' '.join(list(piece)))
                else:  # 英文/数字, and any other word characters: its characters + </w>
                    processed.append(' '.join(list(piece)) + ' </w>')

        return processed

    def preprocess(self, text):
        """The seed's output format: all words joined by spaces."""
        return ' '.join(self.words(text))

    def get_pairs(self, word):
        """获取词内部的相邻字符对"""
        # LENS: a list, not a set: a pair that occurs twice in a word counts twice (the seed's set counts
        # it once, and its iteration order depends on the hash seed)
        pairs = []

        prev_char = word[0]
        for char in word[1:]:
            pairs.append((prev_char, char))
            prev_char = char

        return pairs

    def _merge_pair(self, word_counts, pair, new_entry):
        """将词表中的指定字符对合并为新的条目"""

        merged_word_counts = defaultdict(int)
        bigram = re.escape(' '.join(pair))

        # 确保只匹配整个词中的这对字符
        pattern = re.compile(r'(?<!\S)' + bigram + r'(?!\S)')

        for word, count in word_counts.items():
            # 替换所有出现的字符对
            # LENS: a function, so that "\" in new_entry is not read as a template escape
            merged_word = pattern.sub(lambda m: new_entry, word)
            merged_word_counts[merged_word] += count

        return merged_word_counts

    def train(self, corpus):
        """训练 BPE 模型"""

        # 预处理语料
        # LENS: words, not sentences: Counter over every word of every text, in order of first appearance
        word_counts = Counter(w for text in corpus for w in self.words(text))

        # 初始化词汇表：所有单个字符
        vocab = defaultdict(int)

        for word, count in word_counts.items():
            chars = word.split()
            for char in chars:
                vocab[char] += count

        self.vocab = dict(vocab)

        # 开始合并过程
        for i in range(self.num_merges):
            # 统计所有相邻字符对的出现次数
            pairs = defaultdict(int)

            for word, count in word_counts.items():
                chars = word.split()
                if len(chars) < 2:
                    continue
                for pair in self.get_pairs(chars):
                    pairs[pair] += count

            if not pairs:
                break  # 没有更多可合并的对

            # 找到出现次数最多的字符对
            best_pair = max(pairs, key=pairs.get)
            self.merges[best_pair] = i  # 记录合并顺序
            self.merge_counts.append(pairs[best_pair])  # LENS: record

            # 合并最佳字符对
            new_vocab_entry = ''.join(best_pair)
            self.vocab[new_vocab_entry] = pairs[best_pair]

            # 更新词表
            word_counts = self._merge_pair(word_counts, best_pair, new_vocab_entry)
            # LENS: no progress print

    def tokenize(self, text):
        """使用训练好的 BPE 模型对文本进行分词"""
        if not self.merges:
            raise ValueError("BPE 模型尚未训练，请先调用 train 方法")

        # LENS: the same words as in training, each a list of symbols (the seed splits the whole text
        # into single symbols and then into characters, so it never merges and breaks '</w>' apart)
        words = [w.split() for w in self.words(text)]

        # 对每个词应用合并规则
        tokens = []
        for chars in words:
            if len(chars) == 1:  # 单个字符直接作为 token
                tokens.extend(chars)
                continue

            # 应用所有合并规则（按学习顺序）
            for (a, b), _ in sorted(self.merges.items(), key=lambda x: x[1]):
                i = 0
                while i < len(chars) - 1:
                    if chars[i] == a and chars[i+1] == b:
                        # 合并这两个字符
                        chars = chars[:i] + [a + b] + chars[i+2:]
                    else:
                        i += 1

            tokens.extend(chars)

        return tokens


# -- plain functions for the golden script and the tests (not seed code) ------------------------

def read_lines(path) -> list[str]:
    """A text file's lines as Python reads them (universal newlines: CRLF becomes "\\n")."""
    with open(path, encoding="utf-8") as f:
        return list(f)


def train(texts, *, num_merges: int = 50) -> dict:
    """Train the reference; merges as (left, right, count), the vocab dict, and the trained object."""
    bpe = BPE(num_merges=num_merges)
    bpe.train(texts)
    merges = [(a, b, n) for (a, b), n in zip(bpe.merges, bpe.merge_counts)]
    return {"bpe": bpe, "merges": merges, "vocab": dict(bpe.vocab)}
