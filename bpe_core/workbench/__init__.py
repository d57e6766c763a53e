"""The Workbench: a Qt-free model of everything open (runs, vocabularies, comparisons, analyses)."""
