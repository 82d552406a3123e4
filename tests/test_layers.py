"""The library's imports point down the layers and never go round in a circle; its root holds folders.

Layers, bottom up (a module may import its own layer and the ones below), each a package folder:
common -> corpus -> retrieval -> verification -> workspace -> pipeline -> workbench, evaluation, distributed,
text_check -> training -> cli, service. Imports inside functions count too: a lazy import is still a dependency.
"""

import ast
from pathlib import Path

import pytest

from fever_core.common.settings import PROJECT_ROOT

PACKAGE = Path(__file__).resolve().parent.parent / "fever_core"
ROOT_MODULES = {"__init__.py", "__main__.py"}  # everything else lives in a layer's folder
LAYERS = [
    {"fever_core.common"},
    {"fever_core.corpus"},
    {"fever_core.retrieval"},
    {"fever_core.verification"},
    {"fever_core.workspace"},
    {"fever_core.pipeline"},
    {"fever_core.workbench", "fever_core.evaluation", "fever_core.distributed", "fever_core.text_check"},
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
                circle = path[path.index(target) :] + [target] if target in path else [module, target]
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
    monkeypatch.setitem(GRAPH, "fever_core.common.text", GRAPH["fever_core.common.text"] | {"fever_core.common.types"})
    monkeypatch.setitem(GRAPH, "fever_core.common.types", GRAPH["fever_core.common.types"] | {"fever_core.common.text"})
    with pytest.raises(AssertionError, match="import circle"):
        test_there_is_no_import_circle()


def test_the_package_root_holds_only_the_entry_points():
    loose = sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in ROOT_MODULES)
    assert not loose, f"loose modules in {PACKAGE}: {loose}; move each into the folder of its layer"


def test_every_layer_names_folders():
    for layer in LAYERS:
        for name in layer:
            path = PACKAGE.parent / name.replace(".", "/")
            assert (path / "__init__.py").is_file() or path.with_suffix(".py").name in ROOT_MODULES, name


def public_names(package: str) -> set[str]:
    """The names in ``__all__`` of ``package``'s ``__init__.py`` (empty when it declares none)."""
    init = PACKAGE.parent / package.replace(".", "/") / "__init__.py"
    if not init.is_file():
        return set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


PACKAGES = sorted(module_name(path) for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_names_its_public_api(package):
    assert public_names(package), f"{package}/__init__.py has no __all__: name the package's public API in it"


def deep_imports_of_public_names(path: Path) -> list[str]:
    """``from package.module import name`` in ``path`` where ``package`` (not the file's own) exports ``name``."""
    own = module_name(path) if path.is_relative_to(PACKAGE) else ""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fever_core.")):
            continue
        package = node.module.rsplit(".", 1)[0]
        if package == "fever_core" or own.startswith(package + "."):
            continue
        public = {alias.name for alias in node.names} & public_names(package)
        found += [f"from {node.module} import {name} (use: from {package} import {name})" for name in sorted(public)]
    return found


CALLERS = sorted(
    [*(PACKAGE.parent / "pages").glob("*.py"), PACKAGE.parent / "app.py", *(PACKAGE / "service").glob("*.py")]
)


@pytest.mark.parametrize("path", CALLERS, ids=lambda path: path.relative_to(PACKAGE.parent).as_posix())
def test_pages_and_the_service_import_public_names_from_their_package(path):
    assert not deep_imports_of_public_names(path)


def test_the_public_name_check_catches_a_deep_import(tmp_path):
    page = tmp_path / "page.py"
    page.write_text("from fever_core.common.types import NEI\nfrom fever_core.retrieval.dense import META_FILE\n")
    assert deep_imports_of_public_names(page) == [
        "from fever_core.common.types import NEI (use: from fever_core.common import NEI)"
    ]


MODULE_LINES = 400
"""A module longer than this says why it is one module, in its docstring ("over 400 lines")."""


def test_a_module_over_400_lines_says_why_in_its_docstring():
    long = []
    for folder in ("fever_core", "pages", "benchmarks"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if text.count("\n") > MODULE_LINES and "over 400 lines" not in (ast.get_docstring(ast.parse(text)) or ""):
                long.append(f"{path.relative_to(PROJECT_ROOT)} ({text.count(chr(10))} lines)")
    assert not long, f"split these, or say in their docstring why each is one module (over 400 lines): {long}"
