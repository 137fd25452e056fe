"""docs/reward-lab.md's MCP table and the mcp_server docstring name every tool the app serves (`TOOLS`), each with
its function's arguments."""

import inspect
import re
from pathlib import Path

from playground.ui import lab_mcp, mcp_server
from playground.ui.mcp_server import TOOLS


DOC = Path(__file__).resolve().parents[2] / "docs" / "reward-lab.md"
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def arguments(name: str) -> list[str]:
    """The arguments an MCP client gives the tool (the app's context is bound by the server)."""
    func = getattr(mcp_server, name, None) or getattr(lab_mcp, name)
    return [p for p in inspect.signature(func).parameters if p != "ctx"]


def mcp_table() -> dict[str, list[str]]:
    """{tool: the identifiers in backticks of its arguments cell, outside parentheses} of the table under `## MCP`."""
    section = DOC.read_text(encoding="utf-8").partition("\n## MCP\n")[2]
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \| .* \|$", section, re.MULTILINE)
    return {name: re.findall(r"`([a-z_]+)`", re.sub(r"\([^()]*\)", "", cell)) for name, cell in rows}


def test_the_docs_table_lists_every_tool_with_its_arguments():
    table = mcp_table()
    assert sorted(table) == sorted(TOOLS)
    assert table == {name: arguments(name) for name in table}
    assert f"serves {NUMBERS[len(TOOLS)]} stateless\nMCP tools" in DOC.read_text(encoding="utf-8")


def test_the_server_docstring_lists_every_tool_with_its_arguments():
    listed = dict(re.findall(r"^- `(\w+)\(([^)]*)\)`", mcp_server.__doc__, re.MULTILINE))
    assert sorted(listed) == sorted(TOOLS)
    assert {name: [a for a in " ".join(args.split()).split(", ") if a] for name, args in listed.items()} == {
        name: arguments(name) for name in listed
    }
