from bot.tables.model import Seat, Table, TableError, check_language
from bot.tables.service import Presenter, TableService

__all__ = ["Presenter", "Seat", "Table", "TableError", "TableService", "check_language"]
