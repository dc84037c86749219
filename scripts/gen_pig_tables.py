#!/usr/bin/env python3
"""Regenerate the shipped Pig tables in bot/ai/data (needs numpy).

Same as ``python -m bot.ai.pig_solver --ship``; pass ``--check`` to verify the shipped files
against a fresh solve, or any ``bot.ai.pig_solver`` option to solve another variant.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.pig_solver import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["--ship"]))
