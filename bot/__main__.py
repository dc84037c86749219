import sys

from bot.cli import main

raise SystemExit(main(sys.argv[1:] or ["run"]))
