import sys

from tools.bench.run import main

sys.exit(main())
