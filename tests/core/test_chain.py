"""One text -> units chain for the trainer and the encoder (issue 24): normalizer -> pre-tokenizer ->
unit mapper, as tokenizers' normalizer -> pre-tokenizer -> model serves both training and encoding.

For every preset, the words the corpus counter counts and the symbols the trainer starts each from
are the pieces the encoder of the trained model cuts and the ids it starts each from (before any
merge), through one chain object; and the source says the same: every text -> units path imports
its chain from one home.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bpe_core
from bpe_core import PRESETS, Encoder, Trainer
from bpe_core.base.units import Units
from bpe_core.corpus.counting import pipeline_of
from bpe_core.pipelines.chain import Pipeline

ROOT = Path(bpe_core.__file__).parent

TEXT = ("The cat's 3 hats, Ça va? déjà vu... 12 ½\n"
        "我爱Python编程！école _x カタカナ naïve café\n  two  spaces\tand a tab\n")


def _start(preset: str, text: str):
    """(trainer's words with their initial symbols, encoder's pieces with theirs) for ``text``."""
    config = PRESETS[preset].config
    trainer = Trainer.from_texts([text], config)
    trained = [(w, [trainer.token(i) for i in trainer.segmentation(k)]) for k, w in enumerate(trainer.words)]
    model = trainer.model()
    enc = Encoder(model, merges_limit=0)
    pieces = [p for p in enc.pieces(text) if p.special is None]
    started = [(p.text, [model.tokens[i] for i in enc.start_ids(p.text, p.suffix)[0]]) for p in pieces]
    return trainer, model, trained, started


def _same_normalizer(config) -> bool:
    return config.lowercase == config.encode_lowercase and not config.lowercase_words


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if _same_normalizer(PRESETS[p].config)))
def test_the_trainer_counts_what_the_encoder_starts_from(preset: str) -> None:
    config = PRESETS[preset].config
    trainer, model, trained, started = _start(preset, TEXT)
    # one chain: the counter's, the trainer's and the model's pipeline are one type, one unit mapper
    counting = pipeline_of(config)
    assert type(counting) is Pipeline and type(trainer.pipeline) is Pipeline and model.pipeline is trainer.pipeline
    assert isinstance(model.units, Units) and model.units is trainer.pipeline.units
    # the words counted, in order of first appearance, are the pieces the encoder cuts, in order
    assert [w for w, _ in trained] == list(dict.fromkeys(t for t, _ in started))
    assert counting.words(TEXT) == [t for t, _ in started]
    # each word starts from the same symbols on both sides
    assert dict(trained) == dict(started)


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if not _same_normalizer(PRESETS[p].config)))
def test_seed_003_differs_only_in_the_normalizer(preset: str) -> None:
    """Seed 003 lowercases for training (before or after pre-tokenizing) and encodes text as given
    (its tokenize does not lowercase): the same chain, whose training normalizer alone differs."""
    trainer, model, trained, started = _start(preset, TEXT)
    assert model.pipeline is trainer.pipeline and model.units is trainer.pipeline.units
    assert [w for w, _ in trained] == list(dict.fromkeys(t.lower() for t, _ in started))
    assert dict(trained) == {t.lower(): model.units.symbols(t.lower()) for t, _ in started}
    assert all(symbols == dict(trained)[t] for t, symbols in started if t == t.lower())


def test_the_chain_serves_a_model_read_back_from_its_file(tmp_path) -> None:
    """A native file's model rebuilds the same chain: its encoder starts words where the trainer did."""
    from bpe_core import open_vocabulary, write_vocabulary
    trainer, _, trained, _ = _start("cjk-mixed", TEXT)
    path = tmp_path / "v.json"
    write_vocabulary(trainer.model(), path, "native")
    model = open_vocabulary(path)
    enc = Encoder(model, merges_limit=0)
    assert type(model.pipeline) is Pipeline
    started = {p.text: [model.tokens[i] for i in enc.start_ids(p.text, p.suffix)[0]] for p in enc.pieces(TEXT)}
    assert started == dict(trained)


def _imports(path: Path) -> set:
    """(module, name) of every ``from bpe_core... import name`` anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            for a in n.names}


def test_every_text_to_units_path_takes_its_chain_from_one_home() -> None:
    """The corpus counter, the trainer and the native reader build the chain from pipelines/chain.py;
    the chain and the model (whose ``units`` the encoder starts from) take the unit mapper from
    base/units.py; nothing else resolves a pre-tokenizer or maps a word to units."""
    chain = ("bpe_core.pipelines.chain", "Pipeline")
    for user in ("corpus/counting.py", "training/trainer.py", "formats/native.py", "formats/seed000_trio.py"):
        assert chain in _imports(ROOT / user), user
    units = ("bpe_core.base.units", "Units")
    assert units in _imports(ROOT / "pipelines/chain.py") and units in _imports(ROOT / "model.py")
    assert "model.units" in (ROOT / "encoding/encoder.py").read_text(encoding="utf-8")
    resolvers, mappers = [], []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        names = {name for _, name in _imports(path)}
        if "get_pretokenizer" in names and not rel.startswith("pretokenize/"):
            resolvers.append(rel)
        if "word_units" in names or "Units" in names:
            mappers.append(rel)
    assert resolvers == ["pipelines/chain.py"]
    assert sorted(mappers) == ["model.py", "pipelines/chain.py"]
