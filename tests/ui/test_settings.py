"""Launch settings: flags, then GRADIO_SERVER_NAME / GRADIO_SERVER_PORT, then the Space defaults."""

import pytest

from playground.ui import app as ui_app
from playground.ui.settings import UISettings, parse_settings


@pytest.mark.parametrize(
    ("argv", "env", "host", "port"),
    [
        ([], {}, "127.0.0.1", 7860),
        ([], {"SPACE_ID": "me/playground"}, "0.0.0.0", 7860),
        ([], {"SPACE_ID": "me/playground", "GRADIO_SERVER_PORT": "8080"}, "0.0.0.0", 8080),
        ([], {"GRADIO_SERVER_NAME": "0.0.0.0", "GRADIO_SERVER_PORT": "9000"}, "0.0.0.0", 9000),
        (["--host", "10.0.0.2", "--port", "9001"], {"GRADIO_SERVER_NAME": "0.0.0.0"}, "10.0.0.2", 9001),
    ],
)
def test_host_and_port(argv, env, host, port):
    settings = parse_settings(argv, env)
    assert (settings.host, settings.port) == (host, port)


def test_other_flags():
    settings = parse_settings(["--share", "--auth", "ann:s3cret:x", "--model", "/m", "--runs", "/r", "--mcp"], {})
    assert settings == UISettings(share=True, auth=("ann", "s3cret:x"), model="/m", runs="/r", mcp=True)


def test_bad_auth_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        parse_settings(["--auth", "nopassword"], {})
    assert exit_info.value.code == 2
    assert "USER:PASSWORD" in capsys.readouterr().err


def test_launch_kwargs():
    kwargs = ui_app.launch_kwargs(UISettings(host="0.0.0.0", port=7861, auth=("a", "b")))
    assert kwargs["server_name"] == "0.0.0.0" and kwargs["server_port"] == 7861 and kwargs["auth"] == ("a", "b")
    assert kwargs["max_file_size"] > 0 and kwargs["i18n"] is not None
    assert "mcp_server" not in kwargs


def test_mcp_flag_needs_the_extra(monkeypatch):
    monkeypatch.setattr(ui_app, "mcp_available", lambda: False)
    with pytest.raises(SystemExit, match=r"gradio\[mcp\]"):
        ui_app.launch_kwargs(UISettings(mcp=True))
    monkeypatch.setattr(ui_app, "mcp_available", lambda: True)
    assert ui_app.launch_kwargs(UISettings(mcp=True))["mcp_server"] is True
