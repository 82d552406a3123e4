"""The library's imports point down the layers and never go round in a circle.

Layers, bottom up (a module may import its own layer and the ones below):
shared helpers -> corpus -> retrieval -> verification -> workspace -> pipeline -> evaluation -> training -> cli.
Imports inside functions count too: a lazy import is still a dependency.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "fever_core"
LAYERS = [
    {"fever_core.text", "fever_core.settings", "fever_core.types", "fever_core.nlp", "fever_core.device",
     "fever_core.jsonl", "fever_core.sqlite", "fever_core.model_paths", "fever_core.formats",
     "fever_core.model_versions", "fever_core.jobs", "fever_core.checksums"},
    {"fever_core.corpus"},
    {"fever_core.retrieval"},
    {"fever_core.verification"},
    {"fever_core.workspace"},
    {"fever_core.pipeline", "fever_core.search", "fever_core.batching"},
    {"fever_core.evaluation", "fever_core.annotation", "fever_core.history", "fever_core.distributed"},
    {"fever_core.training"},
    {"fever_core.cli", "fever_core.__main__", "fever_core.service"},
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path) for path in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """The fever_core modules ``path`` imports (``from package import submodule`` counts as the submodule)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fever_core"):
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES
            found.update(submodules or {node.module})
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("fever_core"))
    return found


def layer_of(module: str) -> int:
    if module == "fever_core":
        return 0
    for number, layer in enumerate(LAYERS):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return number
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {__file__}")


GRAPH = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}


def test_every_module_has_a_layer():
    for module in GRAPH:
        layer_of(module)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_import_points_up_a_layer(module):
    upward = sorted(target for target in GRAPH[module] if layer_of(target) > layer_of(module))
    assert not upward, f"{module} (layer {layer_of(module)}) imports from higher layers: {upward}"


def test_there_is_no_import_circle():
    def parent_package(module: str, target: str) -> bool:  # a module's own package __init__ is not a dependency
        return module.startswith(target + ".")

    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if target not in GRAPH or parent_package(module, target):
                continue
            if state.get(target) == "open":
                circle = path[path.index(target):] + [target] if target in path else [module, target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])


def test_the_checks_catch_a_circle_and_an_upward_import(monkeypatch):
    monkeypatch.setitem(GRAPH, "fever_core.corpus.fake", {"fever_core.pipeline"})
    with pytest.raises(AssertionError, match="higher layers"):
        test_no_import_points_up_a_layer("fever_core.corpus.fake")
    monkeypatch.setitem(GRAPH, "fever_core.text", GRAPH["fever_core.text"] | {"fever_core.types"})
    monkeypatch.setitem(GRAPH, "fever_core.types", GRAPH["fever_core.types"] | {"fever_core.text"})
    with pytest.raises(AssertionError, match="import circle"):
        test_there_is_no_import_circle()
