"""Dice Tavern benchmarks. Run one area with ``python -m benchmarks.<area>`` or all with
``python -m benchmarks.run_all``; every script takes ``--quick``. Method and figures: docs/PERFORMANCE.md."""
