"""The admission gate's parts on their own: the one caps table (and docs/security.md showing it), the client's address
behind trusted proxies, the upload records' owners and addresses, a model's size from its config, the path filter,
that every event of the built app passes through the gate, and that its queue does not recompute Gradio's analytics
summary after each event (the app's process stays free for the visitors' requests)."""

import json
import re
from pathlib import Path

import pytest

from playground import admission
from playground.admission import Caps, check_group, check_sampling, client_address, parameter_count
from playground.data.uploads import Uploads
from playground.errors import DataError, PlaygroundError
from playground.redact import scrub_paths
from playground.settings import caps_table
from playground.training.run_queue import PublicCaps


DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def test_docs_show_the_one_caps_table():
    text = DOC.read_text()
    shown = re.search(r"<!-- caps-table -->\n(.*?)\n<!-- /caps-table -->", text, re.S).group(1)
    assert shown == caps_table(), "docs/security.md: paste settings.caps_table() between the caps-table markers"


def test_each_cap_reads_its_variable_and_the_run_caps_are_the_same_table():
    caps = Caps.from_env({"PLAYGROUND_MAX_PROMPT_TOKENS": "10", "PLAYGROUND_MAX_RUN_MINUTES": "2.5"})
    assert (caps.max_prompt_tokens, caps.max_minutes) == (10, 2.5)
    assert PublicCaps.from_env({"PLAYGROUND_MAX_STEPS": "7"}).max_steps == 7
    with pytest.raises(PlaygroundError, match="Bad setting PLAYGROUND_MAX_PATTERN_CHARS='lots'"):
        Caps.from_env({"PLAYGROUND_MAX_PATTERN_CHARS": "lots"})


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda c: check_sampling(["x" * 60_000], 2, 4, c), "a prompt's tokens may be at most 1,024"),
        (lambda c: check_sampling(["x" * 2000] * 2, 16, 512, c), "PLAYGROUND_MAX_SAMPLED_TOKENS); this request has"),
        (lambda c: check_sampling(10**9, 4, 32, c), "SAMPLED_TOKENS); this request has 128,000,000,000"),
        (lambda c: check_group(["a", "b"], {"reference": ["r" * 4001]}, (), c), "PLAYGROUND_MAX_COLUMN_CHARS"),
        (lambda c: check_group(["a" * 2000] * 3, {"reference": "r" * 1000}, (), c), "PLAYGROUND_MAX_PAIR_CHARS"),
        (lambda c: check_group(["a"] * 65, None, (), c), "PLAYGROUND_MAX_COMPLETIONS"),
        (lambda c: admission.check_reward_params("regex", {"pattern": "a" * 690_000}, (), c), "MAX_PATTERN_CHARS"),
        (lambda c: admission.check_reward_params("judge", {"rubric": "r" * 2001}, (), c), "MAX_PARAM_CHARS"),
        (lambda c: admission.check_inputs(["x" * 100_001], c), "PLAYGROUND_MAX_FIELD_CHARS"),
        (lambda c: admission.check_inputs([[{"name": "reward_model", "params": {"model": "/srv"}}]], c), "folders"),
    ],
    ids=["prompt", "sampled", "count", "column", "pairs", "completions", "pattern", "param", "field", "model"],
)
def test_the_gate_refuses_naming_the_cap(call, message):
    with pytest.raises(PlaygroundError, match=re.escape(message)):
        call(Caps())


def test_a_request_within_the_caps_passes_and_its_price_counts_the_prompt():
    assert check_sampling(["ab" * 50], 4, 32) == 4 * (50 + 32)
    assert check_sampling(8, 4, 32) == 8 * 4 * 32
    check_group(["a"] * 64, {"reference": ["r" * 4000]}, ["p"])


XFF, FWD = "x-forwarded-for", "forwarded"


@pytest.mark.parametrize(
    "headers, hops, header, expected",
    [
        ([(XFF, "6.6.6.6, 9.9.9.9")], 1, XFF, "9.9.9.9"),
        ([(XFF, "6.6.6.6"), (XFF, "7.7.7.7, 9.9.9.9")], 1, XFF, "9.9.9.9"),
        ([(XFF, "6.6.6.6, 8.8.8.8, 9.9.9.9")], 2, XFF, "8.8.8.8"),
        ([(XFF, "6.6.6.6, 9.9.9.9")], 0, XFF, "10.0.0.1"),
        ([(XFF, "9.9.9.9")], 2, XFF, "10.0.0.1"),
        ([(FWD, "for=6.6.6.6"), (XFF, "9.9.9.9")], 1, XFF, "9.9.9.9"),
        ([(FWD, 'for=6.6.6.6;proto=https, for="[2001:db8::1]:4711"')], 1, FWD, "2001:db8::1"),
        ([(XFF, "6.6.6.6"), (FWD, "for=9.9.9.9:80")], 1, FWD, "9.9.9.9"),
    ],
    ids=["rightmost", "header-lines", "two-hops", "no-hops", "too-few", "other-header", "forwarded", "forwarded-only"],
)
def test_the_clients_address_is_the_entry_the_trusted_proxy_added(headers, hops, header, expected):
    assert client_address("10.0.0.1", headers, hops, header) == expected


def test_upload_records_belong_to_an_owner_and_an_address(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"prompt": "a"}\n')
    uploads = Uploads(quota_bytes=10_000, max_files=5, max_owners=10, per_address=3)
    uploads.add("victim", str(path), address="1.1.1.1")
    for n in range(1001):  # one address, a new owner each time: it replaces its own oldest only
        uploads.add(f"attacker-{n}", str(path), address="6.6.6.6")
    assert uploads.check("victim", str(path)) == str(path)
    assert len(uploads) == 4
    for n in range(6):  # other addresses fill the table: then a newcomer is refused, no live record replaced
        uploads.add(f"other-{n}", str(path), address=f"7.7.7.{n}")
    with pytest.raises(DataError, match="the table of uploads is full"):
        uploads.add("late", str(path), address="8.8.8.8")
    assert uploads.check("victim", str(path)) == str(path)
    with pytest.raises(DataError, match="must be uploaded"):
        uploads.check("attacker-0", str(path))


def test_a_models_size_comes_from_its_config():
    smol = {"hidden_size": 576, "num_hidden_layers": 30, "intermediate_size": 1536, "vocab_size": 49152}
    assert 130e6 < parameter_count(smol) < 160e6  # SmolLM2-135M
    huge = {"hidden_size": 8192, "num_hidden_layers": 80, "intermediate_size": 28672, "vocab_size": 128256}
    assert parameter_count(huge) > 60e9
    assert parameter_count({"text_config": huge}) == parameter_count(huge)
    with pytest.raises(PlaygroundError, match="folders of the server are not read"):
        admission.check_model("/srv/models/x")
    with pytest.raises(PlaygroundError, match="no config.json here"):
        admission.check_model("pg-attack/not-cached-anywhere")
    admission.check_model("embedded")


def test_messages_show_no_server_path():
    assert scrub_paths("No run named 'a' in /home/user/runs/.") == "No run named 'a' in …/runs."
    assert scrub_paths("open '/tmp/gradio/ab/c.jsonl' failed") == "open '…/c.jsonl' failed"
    kept = "see https://hf.co/a/b, org/name, 1/2 and and/or"
    assert scrub_paths(kept) == kept


@pytest.fixture(scope="module")
def demo(tiny_model_dir):
    from playground.ui.app import build_app
    from playground.ui.settings import UISettings

    return build_app(UISettings(model=str(tiny_model_dir)))


def test_every_event_of_the_app_passes_through_the_gate(demo):
    from playground.ui.common import ungated

    assert ungated(demo) == []
    assert len([f for f in demo.fns.values() if f.fn is not None]) >= 80


def test_the_apps_queue_does_not_summarize_its_events_after_each_one(demo):
    """Gradio's queue calls `compute_analytics_summary` with its recorded events after every event; the app's queue
    returns the empty summary instead of grouping them with pandas (its monitoring dashboard is not served)."""
    queue = demo._queue
    records = [
        {"time": 0.0, "status": "success", "process_time": 0.1, "function": "try_on_text", "session_hash": "a"},
        {"time": 1.0, "status": "failed", "process_time": 0.3, "function": "try_on_text", "session_hash": "b"},
    ]
    queue.events_recorded += len(records)  # two events recorded since the last summary
    try:
        assert queue.compute_analytics_summary(records) == {"functions": {}}
    finally:
        queue.events_recorded -= len(records)


def test_the_default_upload_table_keeps_a_victims_record_past_a_thousand_and_one_owners(tmp_path):
    """The table the app makes with the default caps (1,000 browsers) overflowed by one client: the victim's upload
    stays, as on the app (tests/security/test_app_gate.py attacks it there through a smaller table)."""
    from playground.ui.context import uploads_table

    path = tmp_path / "p.jsonl"
    path.write_text('{"prompt": "a"}\n')
    uploads = uploads_table(Caps())
    assert uploads.max_owners == 1000
    uploads.add("victim", str(path), address="1.1.1.1")
    for n in range(1001):
        uploads.add(f"attacker-{n}", str(path), address="6.6.6.6")
    assert uploads.check("victim", str(path)) == str(path)
    assert len(uploads) == 1 + Caps().max_upload_owners_per_address


def test_what_a_judge_or_a_reward_model_reads_is_priced_formula_terms_included():
    """Each completion a model reads counts (UTF-8 bytes / 2), with a judge's rubric; a reward model or a judge inside
    a formula's terms is priced the same; rewards that run no model are not."""
    from playground.admission import check_judges

    caps = Caps(max_judge_tokens=100)
    three, four = ["x" * 60] * 3, ["x" * 60] * 4  # 30 tokens each
    model = [{"name": "reward_model", "params": {"model": "org/rm"}}]
    judge = {"name": "judge", "params": {"rubric": "y" * 40}}  # 20 tokens of rubric with each completion
    check_judges(three, model, caps)  # 90
    check_judges(four * 10, [{"name": "length", "params": {}}], caps)
    cases = [
        (four, model, 120),
        (three, [judge], 150),
        (three, [{"name": "formula", "params": {"expression": "j", "terms": json.dumps({"j": judge})}}], 150),
    ]
    for completions, selection, tokens in cases:
        with pytest.raises(PlaygroundError, match=rf"PLAYGROUND_MAX_JUDGE_TOKENS\); this request has {tokens}"):
            check_judges(completions, selection, caps)


def test_a_judge_is_priced_with_the_prompt_and_the_columns_its_rubric_quotes():
    """A judge (and a reward model) reads each completion's prompt too, and a rubric's `{{item.<column>}}` is filled
    with the row's value: a long prompt or quoted column is paid once per completion."""
    from playground.admission import check_judges

    caps = Caps(max_judge_tokens=100)
    two = ["x" * 20] * 2  # 10 tokens each
    quoting = [{"name": "judge", "params": {"rubric": "{{item.answer}}"}}]  # 8 tokens as written
    model = [{"name": "reward_model", "params": {"model": "org/rm"}}]
    check_judges(two, quoting, caps, prompts=["p" * 40], columns={"answer": ["short"], "unquoted": ["z" * 10_000]})
    cases = [
        (quoting, dict(columns={"answer": ["a" * 100, "b"]}), 2 * (10 + 8 + 50)),  # the longest value, per row
        (quoting, dict(prompts=["p" * 120]), 2 * (10 + 8 + 60)),
        (model, dict(prompts=["p" * 200]), 2 * (10 + 100)),
    ]
    for selection, read, tokens in cases:
        with pytest.raises(PlaygroundError, match=rf"PLAYGROUND_MAX_JUDGE_TOKENS\); this request has {tokens}"):
            check_judges(two, selection, caps, **read)
