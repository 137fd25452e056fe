"""Public mode's admission gate and identity boundary against an attacker, on a real public app on 127.0.0.1 behind
one simulated proxy hop (the attacker writes `X-Forwarded-For`; the "proxy" appends the real address):

- folders load as reward models through the reward cards' unnamed events and through /run_reward_tests after
  collect_selection (another visitor's model folder, a folder of symbolic links to it), and a Hub model's config is
  priced before it loads;
- the per-address queue cap counts the address the proxy added, not the entries the visitor wrote;
- a preview's prompt is priced with its completions;
- a client opening a thousand sessions replaces no other visitor's upload;
- a regular expression's size is capped;
- no refusal shows a server path.
"""

import json
import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from playground.admission import Caps
from rewards.registry import get_spec
from tests.support.queue_client import app_client, app_config, components, error_of, find_event, payload, raw_call
from tests.ui.live_app import running_app
from tests.ui.test_client import TINY_RUN, form_kwargs


PROXY = "198.51.100.7"  # the attacker's real address, as the Space's proxy appends it
VICTIM = "198.51.100.20"
ENV = {
    "PLAYGROUND_PUBLIC": "1",
    "PLAYGROUND_PROXY_HOPS": "1",  # what the Dockerfile sets: one proxy hop
    "FORWARDED_ALLOW_IPS": "*",  # what the Dockerfile set before: the web server trusted every forwarded entry
    "PLAYGROUND_MAX_UPLOADERS": "40",  # the table of uploads, small enough to overflow in a test (1,000 by default)
}
UPLOAD_TABLE = 40
NOT_A_FOLDER = "folders of the server are not read"


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs")), env=ENV) as live:
        yield live


def visitor(app, real: str, written: str = "") -> Client:
    """A browser session whose requests reach the app through the proxy: `written` is what the visitor put in
    X-Forwarded-For, `real` what the proxy appended."""
    header = f"{written}, {real}" if written else real
    return app_client(app.url, headers={"X-Forwarded-For": header})


def defaults(component: dict):
    value = component["props"].get("value")
    return value if value is not None else ""


def _model_box(component: dict) -> bool:
    return component["props"].get("label") == "model"


def model_folders(tiny_model_dir, tmp_path) -> list[str]:
    """Another visitor's model folder (a real one of the server), and a folder of links to its files, as an attacker
    plants in a folder it can write."""
    links = tmp_path / "links"
    links.mkdir()
    for item in tiny_model_dir.iterdir():
        (links / item.name).symlink_to(item)
    return [str(tiny_model_dir), str(links)]


# --- break 2: folders as reward models ---------------------------------------------------------------------------


def test_a_reward_cards_unnamed_event_loads_no_folder(public_app, tiny_model_dir, tmp_path):
    config = app_config(public_app.url)
    by_id = components(config)
    cards = [
        (index, dep)
        for index, dep in enumerate(config["dependencies"])
        if dep.get("backend_fn")
        and dep.get("api_visibility") == "private"
        and any(by_id[i]["props"].get("label") == "model" for i in dep["inputs"])
        and len(dep["outputs"]) == 1
    ]
    assert len(cards) == 2  # reward_model and judge
    for folder in model_folders(tiny_model_dir, tmp_path):
        for index, dep in cards:

            def value(component, folder=folder):
                return folder if component["props"].get("label") == "model" else defaults(component)

            done = raw_call(public_app.url, uuid.uuid4().hex, index, payload(config, dep, value))
            assert not done["success"] and NOT_A_FOLDER in error_of(done), done


def selection_event(config: dict) -> tuple[int, dict, dict]:
    """(fn_index, dependency) of the event that re-reads the selection from every card (collect_selection), and the
    browser-only step before it: the page gathers the cards' values (the step with the most inputs, no backend) into
    one list, the one input of the backend event chained after it."""
    deps = config["dependencies"]
    gather = max((d for d in deps if not d.get("backend_fn")), key=lambda d: len(d["inputs"]))
    index, collect = next((i, d) for i, d in enumerate(deps) if d.get("trigger_after") == gather["id"])
    assert collect["backend_fn"] and gather["outputs"][0] in collect["inputs"]
    return index, collect, gather


def send_cards(app, session: str, config: dict, cards: list) -> dict:
    """The selection event called raw with `cards` as the gathered list (every other input its default)."""
    index, collect, gather = selection_event(config)
    packed = gather["outputs"][0]
    data = payload(config, collect, lambda c: cards if c["id"] == packed else defaults(c))
    return raw_call(app.url, session, index, data)


def test_run_reward_tests_after_collect_selection_loads_no_folder(public_app, tiny_model_dir, tmp_path):
    config = app_config(public_app.url)
    by_id = components(config)
    _, _, gather = selection_event(config)
    inputs = [by_id[i] for i in gather["inputs"]]
    (model_at,) = [
        n for n, c in enumerate(inputs) if c["props"].get("label") == "model" and c["props"].get("value") == ""
    ]  # reward_model's model (the judge's is "embedded")
    use_at = model_at - 2 - [p.name for p in get_spec("reward_model").params].index("model")
    cases = next(
        c
        for c in config["components"]
        if c["type"] == "dataframe" and len((c["props"].get("value") or {}).get("headers", [])) == 7
    )  # function, completion, prompt, columns, expected, min, max
    headers = cases["props"]["value"]["headers"]
    for folder in model_folders(tiny_model_dir, tmp_path):
        c = visitor(public_app, PROXY)
        cards = [defaults(c_) for c_ in inputs]
        cards[use_at], cards[model_at] = True, folder
        done = send_cards(public_app, c.session_hash, config, cards)
        assert done["success"], done  # the selection is only noted; nothing loads yet
        table = {"headers": headers, "data": [["reward_model", "Hello.", "", "", "", "", ""]]}
        with pytest.raises(AppError, match=NOT_A_FOLDER):
            c.predict("", table, api_name="/run_reward_tests")


@pytest.mark.parametrize("depth", [0, 12])
def test_the_gathered_cards_are_priced_as_the_cards_themselves(public_app, depth):
    """A card's text over the field cap is refused when the cards come as one gathered list, as it was when each
    card was an input of its own: also nested in lists deeper than the gate walks a value, which the card's own
    conversion (`preprocess`) turns back into one long text."""
    config = app_config(public_app.url)
    by_id = components(config)
    _, _, gather = selection_event(config)
    inputs = [by_id[i] for i in gather["inputs"]]
    text_at = next(n for n, c in enumerate(inputs) if c["type"] == "textbox")
    cards = [defaults(c) for c in inputs]
    value = "x" * (Caps().max_field_chars + 1)
    for _ in range(depth):
        value = [value]
    cards[text_at] = value
    done = send_cards(public_app, uuid.uuid4().hex, config, cards)
    assert not done["success"] and "PLAYGROUND_MAX_FIELD_CHARS" in error_of(done), str(done)[:600]


def test_a_hub_models_size_is_read_from_its_config_before_it_loads(public_app, tmp_path, monkeypatch):
    """A Hub id whose config.json says 70 billion parameters is refused by the card before anything loads."""
    import huggingface_hub.constants

    snapshot = tmp_path / "hub" / "models--pg-attack--huge" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (snapshot.parents[1] / "refs").mkdir()
    (snapshot.parents[1] / "refs" / "main").write_text("0" * 40)
    huge = {"model_type": "llama", "hidden_size": 8192, "num_hidden_layers": 80, "intermediate_size": 28672}
    (snapshot / "config.json").write_text(json.dumps({**huge, "vocab_size": 128256}))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    config = app_config(public_app.url)
    index, dep = find_event(
        config,
        lambda dep, by_id: (
            dep.get("api_visibility") == "private"
            and any(
                by_id[i]["props"].get("label") == "model" and by_id[i]["props"].get("value") == ""
                for i in dep["inputs"]
            )
            and len(dep["outputs"]) == 1
        ),
    )

    def value(component):
        return "pg-attack/huge" if component["props"].get("label") == "model" else defaults(component)

    done = raw_call(public_app.url, uuid.uuid4().hex, index, payload(config, dep, value))
    assert not done["success"], done
    assert "PLAYGROUND_MAX_MODEL_PARAMS" in error_of(done) and "500,000,000" in error_of(done), done


# --- break 4: one trusted proxy hop ------------------------------------------------------------------------------


def test_the_queue_cap_counts_the_address_the_proxy_added(public_app):
    ctx = public_app.ctx
    runner = visitor(public_app, "198.51.100.1")
    runner.predict(**form_kwargs(runner, **{**TINY_RUN, "max_steps": 60}), api_name="/start_training")
    job = ctx.jobs.current
    try:
        first = visitor(public_app, PROXY, "203.0.113.1")
        first.predict(**form_kwargs(first, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")  # queued
        assert [w.address for w in ctx.jobs.waiting] == [PROXY]
        for n in range(2, 5):  # the same client, a new entry of its own each time
            forged = visitor(public_app, PROXY, f"203.0.113.{n}, 192.0.2.{n}")
            with pytest.raises(AppError, match="Your network address already has 1 run"):
                forged.predict(**form_kwargs(forged, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
        real = visitor(public_app, VICTIM)  # another visitor still gets in
        real.predict(**form_kwargs(real, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
        assert [w.address for w in ctx.jobs.waiting] == [PROXY, VICTIM]
    finally:
        ctx.jobs.waiting.clear()
        job.stop()
        job.join(300)


# --- break 7: the prompt is priced --------------------------------------------------------------------------------


def test_a_previews_prompt_counts_against_its_tokens(public_app):
    c = visitor(public_app, PROXY)
    with pytest.raises(AppError, match=r"a prompt's tokens may be at most 1,024 \(PLAYGROUND_MAX_PROMPT_TOKENS\)"):
        c.predict(prompt="x" * 60_000, num_generations=2, max_new_tokens=4, api_name="/generate_group")
    # The same through the MCP tool's endpoint, and a prompt given to score (Try on text) has its own cap.
    with pytest.raises(AppError, match="PLAYGROUND_MAX_PROMPT_TOKENS"):
        c.predict("x" * 60_000, "", 2, 4, 0, "", api_name="/preview_group")
    with pytest.raises(AppError, match="PLAYGROUND_MAX_COLUMN_CHARS"):
        c.predict("a\n---\nb", "x" * 60_000, "", api_name="/try_on_text")
    with pytest.raises(AppError, match="PLAYGROUND_MAX_COLUMN_CHARS"):
        c.predict("a\n---\nb", "", json.dumps({"reference": "r" * 50_000}), api_name="/try_on_text")


def test_a_judge_pays_for_the_prompt_and_the_column_it_quotes_once_per_completion(public_app):
    """Each prompt and column value is within its own cap, yet a judge reads the prompt, and the column its rubric
    quotes, once per completion: six completions of one letter cost a judge about 6 x 1,900 tokens."""
    c = visitor(public_app, PROXY)
    six = "\n---\n".join("abcdef")
    quoting = {"name": "judge", "weight": 1.0, "params": {"rubric": "Agrees with {{item.answer}}"}}
    c.predict(json.dumps([quoting]), api_name="/set_rewards")
    with pytest.raises(AppError, match="PLAYGROUND_MAX_JUDGE_TOKENS"):
        c.predict(six, "", json.dumps({"answer": "x" * 3_800}), api_name="/try_on_text")
    with pytest.raises(AppError, match="PLAYGROUND_MAX_JUDGE_TOKENS"):
        c.predict(six, "p" * 3_800, "", api_name="/try_on_text")


# --- break 8: uploads belong to the browser token and the address ------------------------------------------------


def test_more_sessions_than_the_upload_table_holds_replace_no_other_visitors_upload(public_app, tmp_path):
    """One client opens one more fresh session than the table of uploads holds (sized `UPLOAD_TABLE` here by its
    variable: the same code, the same overflow by one as 1,001 sessions against the default 1,000, which
    tests/security/test_app_admission.py overflows on the table itself)."""
    assert public_app.ctx.uploads.max_owners == UPLOAD_TABLE
    prompts = tmp_path / "victim.jsonl"
    prompts.write_text('{"prompt": "Say hi."}\n')
    victim = visitor(public_app, VICTIM)
    kind, name = victim.predict(handle_file(str(prompts)), api_name="/upload_prompts")
    stored = name["value"]
    assert kind == "file" and os.path.isfile(stored)

    config = app_config(public_app.url)
    index, dep = find_event(config, lambda dep, by_id: any(event == "upload" for _, event in dep["targets"]))
    headers = {"X-Forwarded-For": PROXY}
    with httpx.Client(timeout=60, headers=headers) as http:
        (uploaded,) = http.post(public_app.url + "gradio_api/upload", files={"files": prompts.open("rb")}).json()
    file = {"path": uploaded, "orig_name": "a.jsonl", "meta": {"_type": "gradio.FileData"}}
    data = payload(config, dep, lambda component: file)
    # A fresh Gradio session each time, as a script makes them; eight at once.
    with ThreadPoolExecutor(8) as pool:
        sessions = UPLOAD_TABLE + 1
        calls = [
            pool.submit(raw_call, public_app.url, uuid.uuid4().hex, index, data, headers) for _ in range(sessions)
        ]
        answers = [call.result() for call in calls]
    assert sum(a["success"] for a in answers) == sessions
    assert len(public_app.ctx.uploads) <= UPLOAD_TABLE
    # The victim's Start still finds the upload: the path rule passes, and a cap further on refuses the run.
    with pytest.raises(AppError) as err:
        victim.predict(
            **form_kwargs(victim, **{**TINY_RUN, "dataset_kind": "file", "dataset_name": stored, "lora_r": 100000}),
            api_name="/start_training",
        )
    assert "lora_r may be at most 64" in str(err.value), str(err.value)


def test_another_visitors_upload_cache_path_is_refused(public_app, tmp_path):
    """The victim's file as Gradio's upload route stored it (`<cache>/<hash>/victim.jsonl`), sent by an attacker from
    another address to the upload event: refused, though the path is a live file of Gradio's cache."""
    prompts = tmp_path / "victim.jsonl"
    prompts.write_text('{"prompt": "The victim\'s secret prompt."}\n')
    victim = visitor(public_app, VICTIM)
    _, name = victim.predict(handle_file(str(prompts)), api_name="/upload_prompts")
    stored = name["value"]
    assert os.path.isfile(stored)
    config = app_config(public_app.url)
    index, dep = find_event(config, lambda dep, by_id: any(event == "upload" for _, event in dep["targets"]))
    file = {"path": stored, "orig_name": "victim.jsonl", "meta": {"_type": "gradio.FileData"}}
    done = raw_call(
        public_app.url, uuid.uuid4().hex, index, payload(config, dep, lambda c: file), {"X-Forwarded-For": PROXY}
    )
    assert not done["success"] and "must be uploaded through the page" in error_of(done), done
    # The same bytes stored by the attacker's own upload are the attacker's to use (the same path: Gradio's cache is
    # addressed by content).
    with httpx.Client(timeout=60, headers={"X-Forwarded-For": PROXY}) as http:
        (own,) = http.post(public_app.url + "gradio_api/upload", files={"files": prompts.open("rb")}).json()
    file = {"path": own, "orig_name": "victim.jsonl", "meta": {"_type": "gradio.FileData"}}
    done = raw_call(
        public_app.url, uuid.uuid4().hex, index, payload(config, dep, lambda c: file), {"X-Forwarded-For": PROXY}
    )
    assert done["success"], done


# --- regex pattern size --------------------------------------------------------------------------------------------


def test_a_regular_expressions_size_is_capped(public_app):
    c = visitor(public_app, PROXY)
    rewards = json.dumps([{"name": "regex", "weight": 1.0, "params": {"pattern": r"\d" * 25_000}}])
    with pytest.raises(AppError, match=r"may be at most 500 \(PLAYGROUND_MAX_PATTERN_CHARS\)"):
        c.predict(rewards, api_name="/set_rewards")
    with pytest.raises(AppError, match=r"PLAYGROUND_MAX_PATTERN_CHARS\); this request has 50,000"):
        c.predict(["1", "2"], rewards, "", "", api_name="/score_completions")


# --- no server path in a message ------------------------------------------------------------------------------------


def test_no_refusal_shows_a_server_path(public_app):
    c = visitor(public_app, PROXY)
    root = str(public_app.ctx.store.root)
    for endpoint in ("/show_run", "/download_recipe", "/download_adapter", "/delete_run"):
        with pytest.raises(AppError) as err:
            c.predict("no-such-run", api_name=endpoint)
        text = str(err.value)
        assert "no-such-run" in text and root not in text and os.path.dirname(root) not in text, text
