"""Clearing the prompt-file upload: an uploaded file still chosen as the data source gives way to the default set."""

import gradio as gr

from playground.data.sources import BUILTIN_SETS
from playground.ui.train_form import drop_uploaded_file


def test_a_cleared_upload_is_no_longer_the_data_source():
    default = next(iter(BUILTIN_SETS))
    kind, name = drop_uploaded_file(default, "file", "/uploads/3f2a/malformed.csv")
    assert kind == "builtin" and name.value == default and name.choices == [(s, s) for s in BUILTIN_SETS]


def test_a_set_chosen_after_the_upload_stays():
    default = next(iter(BUILTIN_SETS))
    other = list(BUILTIN_SETS)[-1]
    for kind, name in (("builtin", other), ("hub", "org/name"), ("file", other)):
        assert all(isinstance(out, type(gr.skip())) for out in drop_uploaded_file(default, kind, name)), (kind, name)
