"""`python -m tui` runs the `paperscope` command."""

import sys

from tui.entry import main

sys.exit(main())
