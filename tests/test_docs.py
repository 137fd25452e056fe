"""The README's reward list is generated from the registry, no README line is longer than 120 characters, and
README and docs speak of the product only."""

import re
import runpy
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


MAX_README_COLUMNS = 120  # the README is read as plain text too (a terminal, a diff): no line scrolls sideways


def test_the_reward_list_names_every_registered_reward_as_generated():
    script = runpy.run_path(str(ROOT / "scripts" / "reward_table.py"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert script["current"](readme) == script["block"](), "run `python scripts/reward_table.py --write`"
    from rewards.registry import list_specs

    for spec in list_specs():
        assert f"\n- `{spec.name}` (" in script["current"](readme)


def test_no_readme_line_is_longer_than_120_characters():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    long = {number: len(line) for number, line in enumerate(lines, 1) if len(line) > MAX_README_COLUMNS}
    assert long == {}, "README.md lines over 120 characters, {line number: length}"


def test_readme_and_docs_do_not_narrate_history():
    # The words are split in this source so that the same search over the tree does not find this test itself.
    words = ["issue[ -][0-9]+", "to" + "day", "lent" + " to", "helpers?" + " session"]
    history = re.compile("|".join(words), re.IGNORECASE)
    for path in DOCS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not history.search(line), f"{path.name}:{number}: {line}"


def test_relative_links_in_readme_and_docs_resolve():
    link = re.compile(r"\]\(((?!https?://|#)[^)#]+)")
    for path in DOCS:
        for target in link.findall(path.read_text(encoding="utf-8")):
            assert (path.parent / target).exists(), f"{path.name} links to a missing {target}"
