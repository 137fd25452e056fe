"""Public mode: a reward parameter that loads a model (the registry's `loads_model` ones) names a Hub id, never a
folder of the server, also inside a composite reward's terms (the admission gate's `check_selection`)."""

import json

import pytest

from playground.admission import check_selection
from playground.errors import PlaygroundError
from playground.scoring import RewardChoice


@pytest.mark.parametrize(
    "choice",
    [
        RewardChoice("judge", 1.0, {"model": "/tmp"}),
        RewardChoice("reward_model", 1.0, {"model": "/tmp"}),
        RewardChoice(
            "formula",
            1.0,
            {"expression": "j", "terms": json.dumps({"j": {"name": "judge", "params": {"model": "/tmp"}}})},
        ),
        RewardChoice("my_custom", 1.0, {"model": "/tmp"}),  # unknown to the registry: its "model" is checked too
    ],
)
def test_a_server_folder_is_refused(choice):
    with pytest.raises(PlaygroundError, match="/tmp"):
        check_selection([choice])


def test_hub_ids_and_other_parameters_pass():
    check_selection(
        [
            RewardChoice("judge", 1.0, {"model": "HuggingFaceTB/SmolLM2-135M-Instruct", "rubric": "/tmp"}),
            RewardChoice("length", 1.0, {"ideal_length": 5}),
        ]
    )
