"""The MCP server through the real `mcp` client (installed with gradio[mcp]): only stateless tools, each working with
its documented arguments, and two MCP clients that cannot touch each other's state."""

import asyncio
import json
import tempfile

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

from playground.ui.mcp_server import TOOLS, keep_only_mcp_tools
from tests.ui.live_app import close_demo, free_port


LENGTH_5 = json.dumps([{"name": "length", "weight": 1.0, "params": {"ideal_length": 5}}])
ONES = "def mine(completions, **kwargs):\n    return [1.0] * len(completions)\n"
ZEROS = "def mine(completions, **kwargs):\n    return [0.0 if 'a' in c else 2.0 for c in completions]\n"


@pytest.fixture(scope="module")
def mcp_app(tiny_model_dir, monkeypatch_module):
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    settings = UISettings(
        host="127.0.0.1", port=free_port(), model=str(tiny_model_dir), runs=tempfile.mkdtemp(), mcp=True
    )
    ctx = AppContext.create(settings)
    demo = build_app(settings, ctx=ctx)
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
    assert keep_only_mcp_tools(demo) == sorted(TOOLS)
    yield demo, url + "gradio_api/mcp/"
    close_demo(demo)


@pytest.fixture(scope="module")
def mcp_url(mcp_app):
    return mcp_app[1]


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        for name in ("PLAYGROUND_PUBLIC", "SPACE_ID", "PLAYGROUND_CUSTOM_CODE", "PLAYGROUND_SANDBOX_TIMEOUT"):
            patch.delenv(name, raising=False)
        yield patch


async def _call(url: str, calls: list[tuple[str, dict]]) -> list:
    """One MCP client: initialize, then each call in turn; returns (is_error, parsed or text) per call."""
    async with streamablehttp_client(url) as (read, write, _), ClientSession(read, write) as session:
        await session.initialize()
        out = []
        for name, args in calls:
            if name == "list_tools":
                out.append(sorted(t.name for t in (await session.list_tools()).tools))
                continue
            result = await session.call_tool(name, args)
            text = result.content[0].text if result.content else ""
            out.append((result.isError, text))
        return out


def parsed(text: str):
    import ast

    return ast.literal_eval(text)  # Gradio returns a dict's Python text


def test_tools_are_the_stateless_four_and_score(mcp_url):
    tools, (err, text), (err2, rewards) = asyncio.run(
        _call(
            mcp_url,
            [
                ("list_tools", {}),
                ("score_completions", {"completions": ["abcde", "abcdefghij", "abcde"], "rewards": LENGTH_5}),
                ("list_rewards", {}),
            ],
        )
    )
    assert tools == sorted(TOOLS)
    assert not err and not err2
    scores = parsed(text)
    assert [c["total"] for c in scores["completions"]] == [0.0, -5.0, 0.0]
    assert [round(c["advantage"], 3) for c in scores["completions"]] == [0.577, -1.155, 0.577]  # TRL's, std unbiased
    assert "length" in {r["name"] for r in parsed(rewards)}


def test_page_tools_are_not_reachable_over_mcp(mcp_url):
    results = asyncio.run(_call(mcp_url, [(name, {}) for name in ("start_training", "train_status", "show_run")]))
    assert all(err and "Unknown tool" in text for err, text in results)


def test_check_reward_and_preview(mcp_url):
    (err, check), (err2, preview) = asyncio.run(
        _call(
            mcp_url,
            [
                ("check_reward", {"code": ONES}),
                (
                    "preview_group",
                    {"prompt": "Say hi.", "rewards": LENGTH_5, "num_generations": 2, "max_new_tokens": 4},
                ),
            ],
        )
    )
    assert not err and parsed(check)["trial"][0]["values"] == [1.0, 1.0, 1.0, 1.0]
    assert not err2 and len(parsed(preview)["completions"]) == 2


def test_two_mcp_clients_cannot_touch_each_others_state(mcp_url):
    mine = json.dumps([{"name": "mine"}])

    async def both():
        return await asyncio.gather(
            _call(mcp_url, [("score_completions", {"completions": ["ab", "cd"], "rewards": mine, "code": ONES})] * 3),
            _call(mcp_url, [("score_completions", {"completions": ["ab", "cd"], "rewards": mine, "code": ZEROS})] * 3),
            _call(mcp_url, [("score_completions", {"completions": ["ab", "cd"], "rewards": mine})]),
        )

    a, b, c = asyncio.run(both())
    assert [[x["total"] for x in parsed(text)["completions"]] for _, text in a] == [[1.0, 1.0]] * 3
    assert [[x["total"] for x in parsed(text)["completions"]] for _, text in b] == [[0.0, 2.0]] * 3
    err, text = c[0]
    assert err and "mine" in text  # a third client without code: A's and B's functions do not exist for it


def test_every_tool_runs_in_process_and_not_through_a_shared_queue_session(mcp_app):
    # Gradio's MCP server calls a queued tool through one gradio_client session for all MCP clients; the server closes
    # that session's stream when its last event completes, and a call joining just then is cancelled (an empty error).
    demo, _ = mcp_app
    tools = {fn.api_name: fn for fn in demo.fns.values() if fn.api_name in TOOLS}
    assert sorted(tools) == sorted(TOOLS)
    assert [name for name, fn in tools.items() if fn.queue] == []


def test_many_concurrent_calls_each_get_their_own_answer(mcp_url):
    async def many():
        calls = [
            ("score_completions", {"completions": ["a" * i, "b" * (i + 5)], "rewards": LENGTH_5}) for i in range(1, 13)
        ]
        return await asyncio.gather(*[_call(mcp_url, calls) for _ in range(4)])

    for client in asyncio.run(many()):
        assert [err for err, _ in client] == [False] * 12
        # length rewards -|len - 5|: the first completion's total is -|i - 5|, the second's -i
        assert [[c["total"] for c in parsed(text)["completions"]] for _, text in client] == [
            [-abs(i - 5.0), -float(i)] for i in range(1, 13)
        ]
