"""The Train tab's live view re-sends its charts and samples only when a metrics row was logged: a status change alone
(the last tick's "finished" after the final save) redrew every chart with the same data, blank while it redrew."""

import gradio as gr
import pytest

from playground.ui.charts import CHARTS
from playground.ui.context import AppContext
from playground.ui.settings import UISettings
from playground.ui.train_tab import train_status
from tests.support import tiny_models as testing


HEAD = 3  # timer, status line, progress bar; then a chart per CHARTS entry, the samples and the alerts


def _skipped(update) -> bool:
    return isinstance(update, dict) and update == gr.skip()


@pytest.mark.slow  # a real two-step run
def test_a_status_change_alone_does_not_redraw_the_charts(tmp_path, tiny_model_dir):
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    token = ctx.tokens.issue()
    job = ctx.jobs.start(testing.tiny_spec(tiny_model_dir, max_steps=2), owner=ctx.viewer(token))
    job.join(600)
    assert job.status == "finished", job.error
    charts = slice(HEAD, HEAD + len(CHARTS) + 1)  # the charts and the samples table

    first = train_status(ctx, None, token, None)
    key = first[HEAD + len(CHARTS) + 4]  # after the charts, samples, alerts and the two buttons
    assert key.startswith(f"{job.run.id}:{len(job.run.metrics())}:finished:")
    assert not any(_skipped(u) for u in first[charts])  # a first look draws them
    # the samples come with their column widths in the same update (no second event a tick for them): the prompt and
    # the completion share what the numbers leave, the completion the most
    samples = first[HEAD + len(CHARTS)]
    *numbers, prompt, completion = samples.column_widths
    assert set(numbers) == {"auto"} and 0 < float(prompt.rstrip("%")) < float(completion.rstrip("%"))
    assert list(samples.value["headers"])[-2:] == ["prompt", "completion"]

    # the tick before saw the same rows while the run was still going: only the status changed since
    running = key.replace(":finished:", ":running:", 1)
    after = train_status(ctx, None, token, running)
    assert all(_skipped(u) for u in after[charts])
    assert after[1] == first[1] and "finished" in after[1]  # the status line itself is new

    # a row logged since the tick before: the charts are drawn again
    fewer = key.replace(f":{len(job.run.metrics())}:", f":{len(job.run.metrics()) - 1}:", 1)
    assert not any(_skipped(u) for u in train_status(ctx, None, token, fewer)[charts])

    # the owner's finished run, and a stranger's look at it: Start is offered, Stop is not (nothing of theirs runs)
    buttons = slice(HEAD + len(CHARTS) + 2, HEAD + len(CHARTS) + 4)
    for viewer in (token, ctx.tokens.issue()):
        start, stop = train_status(ctx, None, viewer, None)[buttons]
        assert (start.interactive, stop.interactive) == (True, False)


def test_with_no_run_stop_is_not_offered(tmp_path):
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    out = train_status(ctx, None, ctx.tokens.issue(), None)
    start, stop = out[HEAD + len(CHARTS) + 2 : HEAD + len(CHARTS) + 4]
    assert (start.interactive, stop.interactive) == (True, False)
    assert out[1] == "No run yet since the app started; past runs are on the Runs tab."
