"""A languages folder (parity-aware BPE's input): which files are languages, and the dev text it measures on.

The user test of issue 26 read the project's own tests/data/parallel as 16 languages, MANIFEST.tsv one of
them, and the default parity mode refused the folder (it has no dev/).
"""
from pathlib import Path

import pytest

from bpe_core import BPELensError, make_config
from bpe_core.corpus.languages import language_files
from bpe_core.variants.parity_run import ParityTrainer

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"


def test_the_shipped_parallel_folder_is_its_text_files_only():
    langs, train, dev = language_files(PARALLEL)
    assert "MANIFEST" not in langs
    assert langs == sorted(p.stem for p in PARALLEL.glob("*.txt"))
    assert len(langs) == 15 and dev == {}


def test_notes_and_tables_beside_the_language_files_are_not_languages(tmp_path):
    for name, text in (("eng.txt", "the cat\n"), ("deu.txt", "die Katze\n"), ("README.md", "# notes\n"),
                       ("counts.tsv", "word\tcount\n"), ("meta.json", "{}\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert language_files(tmp_path)[0] == ["deu", "eng"]


def test_a_folder_without_text_files_says_what_it_needs(tmp_path):
    (tmp_path / "README.md").write_text("# notes\n", encoding="utf-8")
    with pytest.raises(BPELensError, match=r"\.txt"):
        language_files(tmp_path)


def test_the_default_mode_on_a_folder_without_dev_measures_the_training_text():
    """No dev/: each language is measured on its training text, the reference run with --dev set to the
    training files (what a user of the shipped parallel corpus expects, rather than a refusal)."""
    cfg = make_config("gpt2", variant="parity", num_merges=20)
    t = ParityTrainer.from_languages(PARALLEL, cfg)
    assert t.dev_source == "training text"
    for _ in range(20):
        t.step()
    fed = ParityTrainer.from_languages(PARALLEL, cfg, dev=PARALLEL)  # the training files given as dev text
    for _ in range(20):
        fed.step()
    assert t.bpe.merges == fed.bpe.merges
    assert t.bpe.dev.lengths == fed.bpe.dev.lengths


def test_the_cli_says_a_folder_without_dev_is_measured_on_its_training_text(tmp_path):
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "bpe_core", "train", "--variant", "parity", "--languages",
                          str(PARALLEL), "--preset", "gpt2", "--merges", "5", "-o", str(tmp_path / "p.json")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "no dev/ folder" in out.stderr and "training text" in out.stderr and "--parity-mode ratio" in out.stderr
