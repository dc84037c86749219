from bot.tables.model import Seat, Table, TableError
from bot.tables.service import Presenter, TableService

__all__ = ["Presenter", "Seat", "Table", "TableError", "TableService"]
