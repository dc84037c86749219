"""``python -m bot.simulate``."""

from bot.simulate.command import main

raise SystemExit(main())
