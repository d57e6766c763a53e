"""The Workbench: a Qt-free model of everything open (training runs, vocabularies, the encode text, the
selection, comparisons and analyses), its saved form in a workspace file, and the steps that restore it.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.workbench`` (``Workbench`` and its main records from ``bpe_core`` too), never from the
modules behind it. Each name loads from its home on first use (PEP 562), so importing the face costs
nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.workbench.continuations import (CONTINUATIONS, continuation_timeline, continue_run, left_out,
                                                  start_model, superbpe_config)
    from bpe_core.workbench.records import (DECODE_ERRORS, AnalysisClosed, AnalysisOpened, ComparisonClosed,
                                            ComparisonOpened, EncodeTextChanged, Event, OpenAnalysis, OpenComparison,
                                            OpenVocabulary, RunClosed, RunCorpus, RunOpened, Selection,
                                            SelectionChanged, VocabularyClosed, VocabularyOpened)
    from bpe_core.workbench.restore import (NO_CORPUS, CorpusCheck, MergeDifference, RestoreReport, RunRestore,
                                            check_corpus, corpus_problem_of, describe, merges_difference, reopen_run,
                                            restore_run, runs_beside, worth_restoring)
    from bpe_core.workbench.runs import TrainingRun, count_corpus
    from bpe_core.workbench.rule_runs import check_languages, parity_factory, rule_name, stage_one, text_rule
    from bpe_core.workbench.saved import SavedBench, SavedRun, SavedVocabulary, analysis_dict, read_bench
    from bpe_core.workbench.workbench import RunState, Workbench, WorkbenchState

_RECORDS = ("DECODE_ERRORS", "AnalysisClosed", "AnalysisOpened", "ComparisonClosed", "ComparisonOpened",
            "EncodeTextChanged", "Event", "OpenAnalysis", "OpenComparison", "OpenVocabulary", "RunClosed", "RunCorpus",
            "RunOpened", "Selection", "SelectionChanged", "VocabularyClosed", "VocabularyOpened")
_RESTORE = ("NO_CORPUS", "CorpusCheck", "MergeDifference", "RestoreReport", "RunRestore", "check_corpus",
            "corpus_problem_of", "describe", "merges_difference", "reopen_run", "restore_run", "runs_beside",
            "worth_restoring")

#: public name -> the module of this folder that is its home
_HOMES: Dict[str, str] = {
    **dict.fromkeys(_RECORDS, "records"), **dict.fromkeys(_RESTORE, "restore"),
    "TrainingRun": "runs", "count_corpus": "runs",
    "parity_factory": "rule_runs", "stage_one": "rule_runs",
    "check_languages": "rule_runs", "text_rule": "rule_runs", "rule_name": "rule_runs",
    **dict.fromkeys(("CONTINUATIONS", "continuation_timeline", "continue_run", "left_out", "start_model",
                     "superbpe_config"), "continuations"),
    "SavedBench": "saved", "SavedRun": "saved", "SavedVocabulary": "saved", "read_bench": "saved",
    "analysis_dict": "saved",
    "RunState": "workbench", "Workbench": "workbench", "WorkbenchState": "workbench",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
