"""The table service's shape (issue 23): one door per room in bot/tables. Its modules call no private attribute of
anything but themselves, import each other without a circle (type-only imports counted), the timers and computer
players know the service only through its port; a table's fields are plain (no ``__getattr__``); service.py stays
under 500 lines. Read from the sources (``ast``)."""

from __future__ import annotations

import ast
from pathlib import Path

TABLES = Path(__file__).resolve().parents[2] / "bot" / "tables"
SOURCES = {path.stem: path.read_text(encoding="utf-8") for path in sorted(TABLES.glob("*.py"))}
TREES = {name: ast.parse(text) for name, text in SOURCES.items()}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_module_reaches_into_another_objects_private_attributes():
    """``x._name`` only on ``self`` or ``cls``: another object's (the service's ``_close``, ``_commit``, a table's
    ``_log``) is its own business."""
    found = [
        f"bot/tables/{name}.py:{node.lineno}: {ast.unparse(node)}"
        for name, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and private(node.attr)
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert found == []


def imports(tree: ast.Module) -> set[str]:
    """The bot.tables modules a module imports, wherever the import stands (``if TYPE_CHECKING:`` too)."""
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "bot.tables":
                named.update(alias.name for alias in node.names if alias.name in SOURCES)
            elif node.module.startswith("bot.tables."):
                named.add(node.module.split(".")[2])
            if any(private(alias.name) for alias in node.names) and node.module.startswith("bot."):
                named.add(f"private name from {node.module}")
        elif isinstance(node, ast.Import):
            named.update(a.name.split(".")[2] for a in node.names if a.name.startswith("bot.tables."))
    return named


GRAPH = {name: imports(tree) for name, tree in TREES.items() if name != "__init__"}


def test_the_modules_import_no_private_name_and_form_no_circle():
    assert [f"{name}: {dep}" for name, deps in GRAPH.items() for dep in deps if dep.startswith("private")] == []
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for dep in GRAPH.get(name, set()):
            visit(dep, (*path, name))
        done.add(name)

    for name in GRAPH:
        visit(name, ())


def below(name: str) -> set[str]:
    """Every bot.tables module ``name`` imports, directly or not."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for dep in GRAPH.get(todo.pop(), set()) - seen:
            seen.add(dep)
            todo.append(dep)
    return seen


def test_the_timers_and_computer_players_reach_the_service_only_through_its_port():
    for room in ("deadlines", "computers"):
        assert "port" in GRAPH[room]
        assert "service" not in below(room), room
    assert {"deadlines", "computers", "restore", "upgrade", "settings"} <= GRAPH["service"]


def test_a_table_has_plain_fields_and_no_attribute_hook():
    hooks = [
        f"bot/tables/{name}.py:{node.lineno}"
        for name, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__getattribute__")
    ]
    assert hooks == []
    model = next(n for n in TREES["model"].body if isinstance(n, ast.ClassDef) and n.name == "Table")
    fields = {n.target.id for n in model.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    assert {"state", "timeouts", "acted", "seen", "draws", "fair", "dice", "pending"} <= fields


def test_the_service_module_stays_under_500_lines():
    assert len(SOURCES["service"].splitlines()) < 500
