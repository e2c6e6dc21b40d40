"""`python -m wsconf.cli`, as the `wsconf` command."""
import sys

from . import main

sys.exit(main())
