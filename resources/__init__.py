"""BPE Lens's data files, installed as the package ``bpe_lens_resources``.

The folder stays ``resources/`` in the repository; ``pyproject.toml`` maps it to this import
name so that a wheel carries the files as package data. Code reads them only through
:mod:`bpe_core.resources` (``importlib.resources``), never through a path relative to the checkout.
"""
