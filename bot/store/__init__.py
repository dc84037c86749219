from bot.store.db import Store

__all__ = ["Store"]
