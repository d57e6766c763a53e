import sys

from bpe_core.cli.commands import main

sys.exit(main())
