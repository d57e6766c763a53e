"""bpe_core: a Qt-free library that trains, steps, undoes and inspects Byte-Pair Encoding.

The whole flow - configure, train merge by merge, take a merge back, save, open, encode:

>>> import os, tempfile
>>> from bpe_core import Encoder, Trainer, make_config, open_vocabulary, write_vocabulary
>>> config = make_config("char-whitespace", num_merges=3)  # characters, words end in "</w>"
>>> trainer = Trainer.from_texts(["low lower lowest", "low slow"], config)
>>> [(step.new_token, step.count) for step in trainer.run()]
[('lo', 5), ('low', 5), ('low</w>', 3)]
>>> trainer.undo().rank, trainer.merge_count
(3, 2)
>>> path = os.path.join(tempfile.mkdtemp(), "vocab.json")
>>> write_vocabulary(trainer.model(), path, "native")
>>> [token.raw for token in Encoder(open_vocabulary(path)).encode("low lowest").tokens]
['low', '</w>', 'low', 'e', 's', 't', '</w>']

A :class:`Timeline` owns the position on a run: scrub back and forth, read any word's history:

>>> from bpe_core import Timeline
>>> timeline = Timeline(Trainer.from_texts(["low lower lowest", "low slow"], config))
>>> [step.new_token for step in timeline.step(3)], timeline.seek(1) and timeline.merge_count
(['lo', 'low', 'low</w>'], 1)
>>> [timeline.display(t) for t in timeline.segmentation(0)]
['lo', 'w', '</w>']

The names here load on first use (PEP 562), so ``import bpe_core`` stays cheap for the CLI and
the GUI's start-up; type checkers see them through the ``TYPE_CHECKING`` imports.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

__version__ = "0.1.0"

if TYPE_CHECKING:
    from bpe_core.encoding.dropout import DropoutEncoder
    from bpe_core.encoding.encoder import Encoder
    from bpe_core.formats.detect import open_vocabulary, write_vocabulary
    from bpe_core.model import BPEModel
    from bpe_core.presets import PRESETS, make_config
    from bpe_core.training.timeline import Timeline
    from bpe_core.training.trainer import Trainer
    from bpe_core.types import BPELensError, MergeStep, TrainerConfig
    from bpe_core.workbench.records import (OpenAnalysis, OpenComparison, OpenVocabulary, RunCorpus, Selection,
                                            VocabularyClosed, VocabularyOpened)
    from bpe_core.workbench.restore import RestoreReport
    from bpe_core.workbench.runs import TrainingRun
    from bpe_core.workbench.workbench import Workbench

#: public name -> the module that is its home
_HOMES: Dict[str, str] = {
    "TrainerConfig": "bpe_core.types",
    "MergeStep": "bpe_core.types",
    "BPELensError": "bpe_core.types",
    "make_config": "bpe_core.presets",
    "PRESETS": "bpe_core.presets",
    "Trainer": "bpe_core.training.trainer",
    "Timeline": "bpe_core.training.timeline",
    "Encoder": "bpe_core.encoding.encoder",
    "DropoutEncoder": "bpe_core.encoding.dropout",
    "BPEModel": "bpe_core.model",
    "open_vocabulary": "bpe_core.formats.detect",
    "write_vocabulary": "bpe_core.formats.detect",
    "Workbench": "bpe_core.workbench.workbench",
    "TrainingRun": "bpe_core.workbench.runs",
    "RestoreReport": "bpe_core.workbench.restore",
    "RunCorpus": "bpe_core.workbench.records",
    "OpenVocabulary": "bpe_core.workbench.records",
    "OpenComparison": "bpe_core.workbench.records",
    "OpenAnalysis": "bpe_core.workbench.records",
    "Selection": "bpe_core.workbench.records",
    "VocabularyOpened": "bpe_core.workbench.records",
    "VocabularyClosed": "bpe_core.workbench.records",
}

__all__ = ["BPELensError", "BPEModel", "DropoutEncoder", "Encoder", "MergeStep", "PRESETS", "Timeline", "Trainer",
           "TrainerConfig", "make_config", "open_vocabulary", "write_vocabulary", "__version__",
           "Workbench", "TrainingRun", "RestoreReport", "RunCorpus", "OpenVocabulary", "OpenComparison", "OpenAnalysis",
           "Selection", "VocabularyOpened", "VocabularyClosed"]


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
