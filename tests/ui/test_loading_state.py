"""What each event costs the visitor's browser in loading-state bookkeeping: for every status message of every event,
Gradio's front end rewrites the loading state of each component any event so far has tracked it on, finding it in the
page's tree and copying its value and that of everything inside it. So no event tracks it on a container of more than
a few components (a `gr.Tabs` output made every event copy the whole page), and the events whose progress the page
does not show track it on the page's title, found first. Every input of every finished event joins that list too (the
front end marks the inputs at an event's end), so the hundred inputs of the reward cards are read in the browser into
one (`Packed`), never by a backend event."""

from rewards.registry import list_specs
from tests.ui.live_app import built_app


def layout_sizes(node: dict, sizes: dict[int, int]) -> int:
    """The number of components in `node`'s subtree, itself included, for it and every node under it."""
    sizes[node["id"]] = 1 + sum(layout_sizes(child, sizes) for child in node.get("children", []))
    return sizes[node["id"]]


def in_order(node: dict) -> list[int]:
    """The ids of the page's tree in the order Gradio's front end searches it (depth first)."""
    return [node["id"], *(i for child in node.get("children", []) for i in in_order(child))]


def test_events_track_their_loading_state_on_few_small_components(tmp_path):
    config = built_app(str(tmp_path / "runs")).config
    sizes: dict[int, int] = {}
    layout_sizes(config["layout"], sizes)
    assert sizes[config["layout"]["id"]] > 500  # the page: several hundred components
    titles = [c["id"] for c in config["components"] if '"key": "app.title"' in str(c["props"].get("value"))]
    assert len(titles) == 1  # the page's title (translated in the browser)
    title = titles[0]
    assert in_order(config["layout"]).index(title) < 10  # after the session's states: found at once
    backend = [dep for dep in config["dependencies"] if dep["backend_fn"]]
    hidden = [dep for dep in backend if dep["show_progress"] == "hidden"]
    assert len(hidden) > 50
    for dep in backend:
        # Gradio's front end: `show_progress_on || outputs`, where an empty list is a list (no component at all)
        targets = dep["outputs"] if dep["show_progress_on"] is None else dep["show_progress_on"]
        big = {target: sizes[target] for target in targets if sizes.get(target, 1) > 8}
        assert not big, (dep.get("api_name") or dep["id"], big)
        if dep["show_progress"] == "hidden":
            assert targets == [title], dep.get("api_name") or dep["id"]


def test_no_backend_event_reads_the_reward_cards(tmp_path):
    """The cards' inputs (use, weight, parameters of every reward) are read by a browser-only step into one hidden
    box, the one input of the backend event after it; a backend event reads at most one card's parameters (its
    example scores)."""
    config = built_app(str(tmp_path / "runs")).config
    by_id = {c["id"]: c for c in config["components"]}
    deps = config["dependencies"]
    gather = max((dep for dep in deps if not dep["backend_fn"]), key=lambda dep: len(dep["inputs"]))
    card_inputs = sum(2 + len(spec.params) for spec in list_specs())
    assert len(gather["inputs"]) == card_inputs > 100
    (packed,) = gather["outputs"]
    assert by_id[packed]["type"] == "json" and by_id[packed]["props"]["visible"] is False
    chained = [dep for dep in deps if dep["trigger_after"] == gather["id"]]
    assert [dep["inputs"].count(packed) for dep in chained] == [1] and chained[0]["backend_fn"]
    one_card = max(len(spec.params) for spec in list_specs())
    for dep in deps:
        if dep["backend_fn"]:
            read = set(gather["inputs"]) & set(dep["inputs"])
            assert len(read) <= one_card, (dep.get("api_name") or dep["id"], len(read))
