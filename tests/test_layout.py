"""The engine's layout: no import circle among the project's modules or packages, every package says what it holds,
no module of `playground/` over `MAX_LINES` lines, and the test support outside the package.

Imports are read from the source (module level, inside functions and under `TYPE_CHECKING` alike), so a circle
hidden behind a lazy import counts too.
"""

import ast
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 650  # lines in any one module of playground/
PACKAGES = (
    "playground.cli",
    "playground.data",
    "playground.export",
    "playground.fastpath",
    "playground.lab",
    "playground.lessons",
    "playground.runtime",
    "playground.sandbox",
    "playground.training",
    "playground.ui",
    "rewards",
)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    modules = {}
    for path in sorted([*root.glob("playground/**/*.py"), *root.glob("rewards/**/*.py")]):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (`from a import b` counts as `a.b` when that is a module)."""

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(resolve(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in modules else resolve(base))
        graph[name] = {t for t in targets if t and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Collapse each package of PACKAGES to one node; the engine's top-level modules stay nodes of their own."""

    def node(module: str) -> str:
        return next((p for p in PACKAGES if module == p or module.startswith(p + ".")), module)

    collapsed: dict[str, set[str]] = {}
    for module, targets in graph.items():
        collapsed.setdefault(node(module), set()).update(node(t) for t in targets if node(t) != node(module))
    return collapsed


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The project's import graph, read once for the module's tests (none of them changes it)."""
    return import_graph(project_modules())


def test_the_graph_sees_lazy_imports(graph):
    assert "playground.fastpath.decode" in graph["playground.models"]  # imported inside a function
    assert "playground.validation" in graph["playground.training.job"]
    assert "playground.training.job" in graph["playground.training.run_queue"]  # in a function, under TYPE_CHECKING
    assert "rewards.registry" in graph["rewards.library"]


def test_the_cycle_finder_finds_a_circle_of_three():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_among_modules(graph):
    assert circles(graph) == []


def test_no_import_circle_among_packages(graph):
    assert circles(package_graph(graph)) == []


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("playground.spec", "playground.validation"),
        ("playground.scoring", "playground.isolation"),  # the executor of visitor workers is passed in
        ("playground.spec", "playground.sandbox"),
        ("rewards.registry", "rewards.library"),
        ("playground.fastpath", "playground.training"),
        ("playground.training", "playground.export"),
        ("playground.training", "playground.cli"),
        ("playground.data", "playground.training"),
        ("playground.data", "playground.ui"),
        ("playground.training.job", "playground.training.run_queue"),
        ("playground.ui", "playground.cli"),  # a front end calls the engine, never another front end
        ("playground.lab", "playground.cli"),
        ("playground.lab", "playground.ui"),
    ],
)
def test_lower_layers_do_not_import_higher_ones(graph, low, high):
    offenders = {
        (m, t)
        for m, targets in graph.items()
        if m == low or m.startswith(low + ".")
        for t in targets
        if t == high or t.startswith(high + ".")
    }
    assert offenders == set()


@pytest.mark.parametrize("package", ["playground", *PACKAGES])
def test_each_package_says_what_it_holds(package):
    path = ROOT.joinpath(*package.split("."), "__init__.py")
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8, f"{path} needs a docstring that says what lives there"


def test_a_leaf_package_imports_nothing_of_the_project_but_the_settings(graph):
    offenders = {
        (m, t)
        for m, targets in graph.items()
        if m.startswith("playground.runtime")
        for t in targets
        if t != "playground.settings"
    }
    assert offenders == set()


def test_test_support_is_not_shipped():
    """The tiny-model builders and the raw queue client live with the tests (tests/support/), outside the wheel."""
    shipped = {name.rsplit(".", 1)[-1] for name in project_modules()}  # playground/ and rewards/
    assert not shipped & {"testing", "tiny_models", "queue_client"}
    assert (ROOT / "tests" / "support" / "tiny_models.py").is_file()
    assert (ROOT / "tests" / "support" / "queue_client.py").is_file()


def test_prompt_data_is_a_package_of_what_it_holds():
    data = ROOT / "playground" / "data"
    assert not (ROOT / "playground" / "data.py").exists()
    modules = {p.stem for p in data.glob("*.py")}
    assert {"sources", "parsers", "chat", "completion_prefix", "uploads"} <= modules


def test_the_run_queue_lives_in_its_own_module():
    defined = {
        name: {
            n.name
            for n in ast.parse(ROOT.joinpath(*name.split(".")).with_suffix(".py").read_text()).body
            if isinstance(n, ast.ClassDef | ast.FunctionDef)
        }
        for name in ("playground.training.job", "playground.training.run_queue")
    }
    assert "JobManager" in defined["playground.training.run_queue"]
    assert "TrainingJob" in defined["playground.training.job"]
    assert "JobManager" not in defined["playground.training.job"]


def test_no_module_of_playground_is_over_the_line_limit():
    lines = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in project_modules().items()
        if name.startswith("playground.")
    }
    assert len(lines) > 100
    over = {name: n for name, n in lines.items() if n > MAX_LINES}
    assert over == {}, f"over {MAX_LINES} lines: split each by what it holds"


def preexec_calls(source: str) -> list[int]:
    """The lines of `source` that start a process with `preexec_fn`."""
    tree = ast.parse(source)
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg == "preexec_fn"]


def test_the_preexec_finder_finds_one():
    assert preexec_calls("import subprocess\nsubprocess.run(['true'], preexec_fn=lambda: None)\n") == [2]


def test_no_child_process_runs_python_between_fork_and_exec():
    """The app serves from many threads: a child forked from it that runs Python code before exec (`preexec_fn`) can
    wait forever on a lock another thread held at the fork, and the parent waits for its exec with no deadline. A
    worker sets its own limits once it runs (as the upload worker and the sandbox worker do)."""
    found = {
        str(path.relative_to(ROOT)): lines
        for path in project_modules().values()
        if (lines := preexec_calls(path.read_text()))
    }
    assert found == {}
