"""``python -m bot.terminal``: the same as ``dicetavern play``."""

from bot.terminal.command import main

raise SystemExit(main())
