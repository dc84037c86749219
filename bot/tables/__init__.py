from bot.tables.model import Seat, Table, TableError, check_language
from bot.tables.port import Presenter
from bot.tables.service import TableService

__all__ = ["Presenter", "Seat", "Table", "TableError", "TableService", "check_language"]
