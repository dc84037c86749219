"""High Roll, a sixth game kept outside bot/ to prove docs/ADDING_A_GAME.md: everyone rolls one die, the highest
roll wins; tied top rolls roll again (or share the win). tests/test_sixth_game.py registers it, runs every check the
shipped games get on it, plays it in the terminal, and removes it again.

Its parts, as the guide lays them out: the engine and its spec (:mod:`.engine`), the renderer (:mod:`.render`),
the computer player (:mod:`.player`) and reference player (:mod:`.reference`), the Discord cog (:mod:`.cog`) and
its texts in every shipped language (``locales/<lang>/*.json``, named by ``GameSpec.locales``).
"""
