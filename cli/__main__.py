"""`python -m cli`: the same as the `phase10` command."""

import sys

from cli.main import main

sys.exit(main())
