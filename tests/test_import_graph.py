"""The import graph of the project's packages (issue 47): no circles, and each layer
imports only what it may.

Every import counts, at a module's top, under `if TYPE_CHECKING:` and inside a
function: an import hidden in a function still ties the two modules together, so a
circle cannot be broken by moving an import into a function, only by moving code to
where it belongs. An edge goes to the module named (`from a.b import c` names `a.b.c`
when that is a module, else `a.b`); a package's `__init__` counts only where a name is
imported from the package itself.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scorer", "vision", "web", "cli", "models")
#: What the scorer never imports: it is pure rules, run anywhere.
SCORER_NEVER = ("cv2", "numpy", "flask")
#: Modules outside web/ that may import it, and why.
WEB_IMPORTERS = {
    "cli.serve": "starts the scorepad",
    "cli.doctor": "checks the scorepad's config file",
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages by its dotted name."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported(module: str, path: Path, modules: Collection[str]) -> Iterator[str]:
    """The absolute names of what a module imports anywhere in its file, relative
    imports resolved: `from a import b` gives a.b when `modules` holds it (what runs is
    the module b; its package a was loaded before), else a."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                name = f"{source}.{alias.name}"
                yield name if name in modules else source


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (itself left out)."""
    return {module: {name for name in imported(module, path, modules) if name in modules}
            - {module} for module, path in modules.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), each as
    the modules in import order, the first repeated at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_circle(graph, group) for group in groups]


def _circle(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """A shortest circle through the group's first module, by breadth-first search."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for other in sorted(graph[module] & group):
                if other == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if other not in came_from:
                    came_from[other] = module
                    following.append(other)
        frontier = following
    raise AssertionError(f"{sorted(group)} holds no circle")


def names_under(name: str, roots: tuple[str, ...]) -> bool:
    return any(name == root or name.startswith(root + ".") for root in roots)


MODULES = module_files()
GRAPH = import_graph(MODULES)


def test_every_package_is_walked() -> None:
    assert {"scorer.dice", "vision.read.pipeline", "web.app", "cli.main",
            "models.net"} <= set(MODULES)
    assert "scorer.dice" in GRAPH["scorer.game"]


def test_no_module_imports_itself_back() -> None:
    circles = [" -> ".join(circle) for circle in cycles(GRAPH)]
    assert circles == [], "import circles:\n" + "\n".join(circles)


def test_the_cycle_finder_names_a_circle(tmp_path: Path) -> None:
    """It finds circles through function-level and TYPE_CHECKING imports too."""
    package = tmp_path / "scorer"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from scorer.b import thing\n")
    (package / "b.py").write_text("def thing():\n    from scorer import c\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (package / "d.py").write_text("import scorer.a\n")
    graph = import_graph(module_files(tmp_path))
    assert graph["scorer.b"] == {"scorer.c"}
    assert cycles(graph) == [["scorer.a", "scorer.b", "scorer.c", "scorer.a"]]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if names_under(m, ("scorer",))))
def test_the_scorer_imports_no_image_or_web_library(module: str) -> None:
    names = set(imported(module, MODULES[module], MODULES))
    assert sorted(name for name in names if names_under(name, SCORER_NEVER)) == []


def test_only_web_and_the_commands_that_serve_it_import_web() -> None:
    importers = {module for module in MODULES if not names_under(module, ("web",))
                 and any(names_under(name, ("web",))
                         for name in imported(module, MODULES[module], MODULES))}
    assert importers <= set(WEB_IMPORTERS), sorted(importers - set(WEB_IMPORTERS))
    assert not any(names_under(module, ("scorer", "vision", "models")) for module in importers)
