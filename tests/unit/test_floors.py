"""The package's floors (README, "The layout of the code"): each module imports only those below
it, none below the blueprints imports one, and no modules import each other in a circle. Read
from the source, every import counted (those inside a function and for type checking too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()
# A blueprint is a package of the app's with its routes: a feature's pages (tables, sheet...).
BLUEPRINTS = {name.rsplit(".", 1)[0] for name in MODULES if name.endswith(".routes")}


def _imported(name: str, path: Path) -> set[str]:
    """The package's modules one module imports, by name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in MODULES else base)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {module for module in found if module in MODULES and module != name}


IMPORTS = {name: _imported(name, path) for name, path in MODULES.items()}


def _blueprint_of(module: str) -> str | None:
    """The blueprint a module belongs to, if any."""
    return next((bp for bp in BLUEPRINTS if module == bp or module.startswith(f"{bp}.")), None)


def test_the_blueprints_are_found() -> None:
    assert {"scorekeeper.sheet", "scorekeeper.tables", "scorekeeper.history"} <= BLUEPRINTS


def test_nothing_below_the_blueprints_imports_one() -> None:
    # create_app (the package's own __init__) registers them: the one module above them all.
    reaching_up = sorted(
        f"{module} imports {imported}"
        for module, imports in IMPORTS.items()
        if module != "scorekeeper" and _blueprint_of(module) is None
        for imported in imports
        if _blueprint_of(imported) is not None
    )
    assert reaching_up == []


def test_a_blueprint_imports_no_other_blueprint() -> None:
    across = sorted(
        f"{module} imports {imported}"
        for module, imports in IMPORTS.items()
        if (mine := _blueprint_of(module)) is not None
        for imported in imports
        if (theirs := _blueprint_of(imported)) is not None and theirs != mine
    )
    assert across == []


def _circles() -> Iterator[list[str]]:
    """The groups of modules that import each other round in a circle (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> Iterator[list[str]]:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        for imported in IMPORTS[module]:
            if imported not in index:
                yield from visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in stack:
                lowest[module] = min(lowest[module], index[imported])
        if lowest[module] == index[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1:
                yield sorted(group)

    for module in IMPORTS:
        if module not in index:
            yield from visit(module)


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert list(_circles()) == []
