"""The store's shape (issue 23): the base knows no backend, and no module of bot/ or cogs/ imports another's private
names. Both read the sources (``ast``), every import counted wherever it stands (top, ``if TYPE_CHECKING:``, a
function)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_graph import modules  # dotted name -> file, for every module of bot/ and cogs/

BASE = "bot.store.db"  # the Store interface and the group commit
BACKENDS = {"bot.store.sqlite", "bot.store.postgres", "bot.store", "aiosqlite", "asyncpg", "sqlite3"}
# ``bot.store`` itself is the factory (it imports both backends); sqlite3/asyncpg/aiosqlite are the drivers.

# Private names imported across modules that are allowed for now: none. (importer, what it names) -> owner.
KNOWN: dict[tuple[str, str], str] = {}


def _absolute(name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (a ``from a import b`` counts as ``a`` and as ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(name, path, node)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def private_uses(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """What ``name`` takes from another project module that is private there: ``from m import _x``, ``m._x`` on a
    module it imported, or a module ``a._b`` imported from outside package ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    uses: set[str] = set()
    aliases: dict[str, str] = {}  # a local name -> the project module it is bound to

    def outside(module: str) -> bool:
        parts = module.split(".")  # a private part, used from outside the package that holds it
        return any(_private(p) and not name.startswith(".".join(parts[:i]) + ".") for i, p in enumerate(parts))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    if outside(alias.name):
                        uses.add(alias.name)
                    if alias.asname:
                        aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(name, path, node)
            if module not in known or module == name:
                continue
            if outside(module):
                uses.add(module)
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if full in known:
                    aliases[alias.asname or alias.name] = full
                    if outside(full):
                        uses.add(full)
                elif _private(alias.name):
                    uses.add(full)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr):
            module = aliases.get(node.value.id)
            if module is not None and module != name:
                uses.add(f"{module}.{node.attr}")
    return uses


def violations() -> dict[tuple[str, str], str]:
    known = modules()
    return {(name, use): "" for name, path in known.items() for use in sorted(private_uses(name, path, known))}


def test_the_base_store_module_imports_no_backend_even_through_its_own_imports() -> None:
    known = modules()
    seen, todo = set(), [BASE]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        reached = imported(module, known[module])
        assert not reached & BACKENDS, f"{module} (reached from {BASE}) imports {sorted(reached & BACKENDS)}"
        todo.extend(m for m in reached if m in known and m.startswith("bot."))


def test_the_finder_sees_each_kind_of_private_use(tmp_path: Path) -> None:
    """The check itself, on a made-up package: a private name imported, one read off an imported module, a private
    module used from outside its package; and what is allowed (its own package's private module, a public name)."""
    files = {
        "pkg/a.py": "X = 1\n_hidden = 2\n",
        "pkg/_inner.py": "Y = 1\n",
        "pkg/b.py": "from pkg import _inner\nfrom pkg.a import X, _hidden\n",
        "pkg/c.py": "from pkg import a\nimport pkg.a as alias\nprint(a._hidden, alias._hidden, a.X)\n",
        "other/d.py": "from pkg._inner import Y\n",
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    known = {r.removesuffix(".py").replace("/", "."): tmp_path / r for r in files}
    assert private_uses("pkg.b", known["pkg.b"], known) == {"pkg.a._hidden"}
    assert private_uses("pkg.c", known["pkg.c"], known) == {"pkg.a._hidden"}
    assert private_uses("other.d", known["other.d"], known) == {"pkg._inner"}
    assert private_uses("pkg.a", known["pkg.a"], known) == set()


def test_no_store_module_takes_a_private_name_from_another() -> None:
    found = [f"{name} uses {use}" for name, use in violations() if name.startswith("bot.store")]
    assert not found, "\n".join(found)


def test_no_module_of_bot_or_cogs_takes_a_private_name_from_another_beyond_the_known_list() -> None:
    found = set(violations())
    new = sorted(found - set(KNOWN))
    assert not new, "private names used across modules:\n" + "\n".join(f"{n} uses {u}" for n, u in new)
    cleared = sorted(set(KNOWN) - found)
    assert not cleared, "no longer found: take them off KNOWN:\n" + "\n".join(f"{n} uses {u}" for n, u in cleared)
