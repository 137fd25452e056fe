"""The Train form's refusals over HTTP: a number box left empty or holding text, and a max_steps no run could
finish, each named with the field, in the page's language, and no run left behind."""

import pytest
from gradio_client.exceptions import AppError

from tests.support.queue_client import app_client
from tests.ui.test_client import LENGTH_5, TINY_RUN, client, form_kwargs


@pytest.mark.parametrize(
    ("lang", "field", "value", "expected"),
    [
        ("en", "learning_rate", None, "learning_rate needs a number."),
        ("zh", "learning_rate", None, "learning_rate 需要一个数字。"),
        ("en", "max_steps", 1e9, "max_steps 1000000000 would take at least 11,574 days, even at one second a step; "),
        ("zh", "max_steps", 1e9, "max_steps 1000000000 即使每步只用一秒也至少需要 11,574 天"),
    ],
)
def test_a_bad_number_is_refused_with_its_name(app, lang, field, value, expected):
    headers = {"Accept-Language": "zh-CN"} if lang == "zh" else {}
    c = app_client(app.url, headers=headers) if headers else client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    before = len(app.ctx.store.list())
    with pytest.raises(AppError) as caught:
        c.predict(**form_kwargs(c, **{**TINY_RUN, field: value}), api_name="/start_training")
    assert str(caught.value).startswith(expected), str(caught.value)
    assert "got None" not in str(caught.value)
    assert len(app.ctx.store.list()) == before
