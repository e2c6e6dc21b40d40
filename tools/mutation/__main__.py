import sys

from tools.mutation.cli import main

sys.exit(main())
