"""Questions asked of a vocabulary or a run: two vocabularies compared, a vocabulary's health on a
corpus, why a word was cut as it was, a token's merge tree, the scripts of a corpus's words.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.analysis``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.analysis.biography import FILTERS as BIOGRAPHY_FILTERS
    from bpe_core.analysis.biography import STATUSES as BIOGRAPHY_STATUSES
    from bpe_core.analysis.biography import Biography, TokenLife, biography_csv, token_biography
    from bpe_core.analysis.curves import ALL as ALL_GROUP
    from bpe_core.analysis.curves import (MEASURE_LABELS, MEASURES, CurveRow, Curves, EvalText, curves_csv,
                                          group_label, model_curves, read_eval_files, run_curves)
    from bpe_core.analysis.diff import ModelDiff, TextDiff, compare_text, diff_models
    from bpe_core.analysis.explain import WordExplanation, explain_at
    from bpe_core.analysis.group_curves import GroupCurves
    from bpe_core.analysis.health import (STATUSES, HealthReport, TokenHealth, usage_by_rank, vocabulary_health,
                                          write_health_csv)
    from bpe_core.analysis.lineage import merge_tree, token_id_of
    from bpe_core.analysis.measures import (RenyiTally, TextMeasures, TextSize, VocabularyUse, bytes_per_token,
                                            gini, language_costs, parity, parity_gini, renyi_efficiency, renyi_entropy,
                                            text_measures, text_size, tokens_per_100_chars, tokens_per_word,
                                            vocabulary_use)
    from bpe_core.analysis.removals import ios_inputs, removal_caption, removal_label, removals_in_word
    from bpe_core.analysis.scripts import words_scripts
    from bpe_core.analysis.variant_compare import (VariantFigures, WordGroups, corpus_words, file_costs,
                                                  language_files, run_language_costs, run_word_groups,
                                                  tokens_per_word_note, variant_figures, word_groups)

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "ALL_GROUP": "curves:ALL",
    "BIOGRAPHY_FILTERS": "biography:FILTERS", "BIOGRAPHY_STATUSES": "biography:STATUSES",
    **dict.fromkeys(("Biography", "TokenLife", "biography_csv", "token_biography"), "biography"),
    **dict.fromkeys(("MEASURE_LABELS", "MEASURES", "CurveRow", "Curves", "EvalText", "curves_csv", "group_label",
                     "model_curves", "read_eval_files", "run_curves"), "curves"),
    "ModelDiff": "diff", "TextDiff": "diff", "compare_text": "diff", "diff_models": "diff",
    "WordExplanation": "explain", "explain_at": "explain",
    "GroupCurves": "group_curves",
    "STATUSES": "health", "HealthReport": "health", "TokenHealth": "health", "usage_by_rank": "health",
    "vocabulary_health": "health", "write_health_csv": "health",
    "merge_tree": "lineage", "token_id_of": "lineage",
    **dict.fromkeys(("RenyiTally", "TextMeasures", "TextSize", "VocabularyUse", "bytes_per_token", "gini",
                     "language_costs", "parity", "parity_gini", "renyi_efficiency", "renyi_entropy",
                     "text_measures", "text_size", "tokens_per_100_chars", "tokens_per_word", "vocabulary_use"),
                    "measures"),
    **dict.fromkeys(("ios_inputs", "removal_caption", "removal_label", "removals_in_word"), "removals"),
    "words_scripts": "scripts",
    **dict.fromkeys(("VariantFigures", "WordGroups", "corpus_words", "file_costs", "language_files",
                     "run_language_costs", "run_word_groups", "tokens_per_word_note", "variant_figures",
                     "word_groups"), "variant_compare"),
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
