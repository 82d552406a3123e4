"""``python -m fever_core``: the command line."""

from fever_core.cli import main

raise SystemExit(main())
