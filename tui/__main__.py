"""`python -m tui` runs the `paperscope` command."""

import sys

from tui.cli import main

sys.exit(main())
