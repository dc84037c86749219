"""The import graph of bot/ and cogs/ has no circle, type-only and function-level imports included (issue 23).

Every ``import`` and ``from … import`` is an arrow, wherever it stands: at the top, under ``if TYPE_CHECKING:`` or
inside a function. ``from a.b import c`` points at the module ``a.b.c`` when that is a module, else at ``a.b``; a
package's ``__init__`` is its own node, and importing ``a.b.c`` is no arrow to ``a.b`` (Python runs the package's
``__init__`` first, but a package that re-exports its modules would otherwise be a circle with each of them).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs")


def modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of bot/ and cogs/ (a package under its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` (the module in ``path``) imports."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                targets.add(submodule if submodule in known else module)
    return {target for target in targets if target in known and target != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_sees_a_circle() -> None:
    """The check itself: a two-module circle, a three-module one and a line without one."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"g"}, "g": set()}
    assert sorted(circles(edges)) == [["a", "b"], ["c", "d", "e"]]


def test_the_graph_reads_every_kind_of_import() -> None:
    """bot.client's arrows include a top-level import, and the graph knows modules of both packages."""
    edges = graph()
    assert "bot.tables.service" in edges and "cogs.tables" in edges
    assert "bot.store" in edges["bot.client"]
    assert edges["bot.tables.service"], "bot.tables.service imports project modules"


def test_no_import_circle_in_bot_or_cogs() -> None:
    found = circles(graph())
    assert not found, "import circles (every import counts, type-only and in functions too):\n" + "\n".join(
        " <-> ".join(component) for component in found
    )
