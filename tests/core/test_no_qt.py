"""bpe_core never imports Qt: a fresh interpreter imports every module and checks sys.modules."""
import subprocess
import sys


def test_importing_bpe_core_loads_no_qt():
    code = (
        "import pkgutil, importlib, sys, bpe_core\n"
        "for m in pkgutil.walk_packages(bpe_core.__path__, 'bpe_core.'):\n"
        "    if m.name != 'bpe_core.__main__': importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"bpe_core pulled in Qt modules: {out.stdout}"
