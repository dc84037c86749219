"""The one thing pyproject.toml cannot say: the engines' optional compiled fast path (bot/games/_fast.c).

``optional=True``: without a C compiler or Python's headers the build warns and goes on, and the pure-Python
engines run (bot/games/_compiled.py); docs/PERFORMANCE.md, "Engines".
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bot.games._fast", ["bot/games/_fast.c"], optional=True)])
