"""Contract every registered reward must honour, whatever it computes (TRL's reward-function interface)."""

import pickle
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from rewards import _bounded
from rewards.registry import build_reward, list_specs, metric_name


NAMES = [spec.name for spec in list_specs()]
# A reward model is a folder or Hub id: the contract runs it on a tiny random one-label classifier (built below), which
# has no preference between the examples; tests/rewards/test_reward_lab.py checks its values equal TRL's instead.
NO_PREFERENCE = {"reward_model"}
# Rewards that read the prompt (TRL's `prompts` kwarg), as a reward model or a judge must: it is not extra there.
READS_PROMPTS = {"reward_model", "judge", "len_reward"}


def _batch(spec):
    """The spec's good and bad examples as one TRL batch: dataset columns are lists, one entry per completion."""
    completions = [spec.good.completion, spec.bad.completion]
    columns = sorted(set(spec.good.kwargs) | set(spec.bad.kwargs))
    kwargs = {c: [spec.good.kwargs.get(c), spec.bad.kwargs.get(c)] for c in columns}
    return completions, kwargs


def _conversational(completions):
    return [[{"role": "assistant", "content": c}] for c in completions]


# Rewards that start a process (the program runner's sandbox; off the main thread, the answer checker of the
# math_verify rewards) or load a model (the judge, the classifier).
INTEGRATION = {"code_tests", "judge", "reward_model"}
INTEGRATION |= {"accuracy", "correctness", "reasoning_accuracy", "cosine_scaled", "len_reward"}


@pytest.fixture(params=[pytest.param(n, marks=pytest.mark.integration) if n in INTEGRATION else n for n in NAMES])
def spec(request):
    return next(s for s in list_specs() if s.name == request.param)


@pytest.fixture(scope="session")
def classifier_dir(tmp_path_factory, embedded_dir):
    from tests.support.tiny_models import save_tiny_model

    return save_tiny_model(tmp_path_factory.mktemp("classifier"), classifier=True)


@pytest.fixture
def build(spec, request):
    """`build_reward(spec.name)`, with the tiny classifier for rewards that need a model folder."""
    params = {}
    if spec.name in NO_PREFERENCE:
        params = {"model": str(request.getfixturevalue("classifier_dir"))}
    return lambda: build_reward(spec.name, params)


def test_every_spec_is_complete(spec):
    assert spec.description and "\n" not in spec.description
    assert spec.family in ("format", "length", "accuracy", "content", "other")
    assert spec.good is not None and spec.bad is not None
    assert set(spec.good.kwargs) == set(spec.bad.kwargs) == set(spec.columns)


def test_one_float_or_none_per_completion(spec, build):
    completions, kwargs = _batch(spec)
    values = build()(completions, **kwargs)
    assert isinstance(values, list) and len(values) == len(completions)
    assert all(v is None or type(v) is float for v in values)


def test_good_example_scores_higher_than_bad(spec, build):
    completions, kwargs = _batch(spec)
    good, bad = build()(completions, **kwargs)
    assert good is not None and bad is not None
    assert good > bad or spec.name in NO_PREFERENCE


def test_ignores_extra_kwargs(spec, build):
    completions, kwargs = _batch(spec)
    reward = build()
    extra = {
        "prompts": ["Q1", "Q2"],
        "trainer_state": None,
        "log_extra": lambda column, values: None,
        "log_metric": lambda name, value: None,
        "unrelated_column": ["x", "y"],
    }
    if spec.name in READS_PROMPTS:
        kwargs["prompts"] = extra.pop("prompts")
    assert reward(completions, **kwargs, **extra) == reward(completions, **kwargs)


def test_conversational_same_as_standard(spec, build):
    completions, kwargs = _batch(spec)
    reward = build()
    assert reward(_conversational(completions), **kwargs) == reward(completions, **kwargs)


def test_pickle_round_trip(spec, build):
    completions, kwargs = _batch(spec)
    reward = build()
    restored = pickle.loads(pickle.dumps(reward))
    assert restored.__name__ == reward.__name__
    assert restored(completions, **kwargs) == reward(completions, **kwargs)


def test_runs_on_worker_threads(spec, build, monkeypatch):
    # Off the main thread the math_verify rewards check answers in the bounded checker, which gives a call up after
    # 5 s: the guard against catastrophic inputs (tests/rewards/test_bounded_answers.py). Here an honest batch must
    # score on a worker thread as on the main one, however loaded the machine, so the call gets the checker's start
    # allowance instead (a batch of 0.4 s on a quiet 2-core machine can pass 5 s on a loaded one).
    monkeypatch.setattr(_bounded.CHECKER, "seconds", _bounded.START_SECONDS)
    completions, kwargs = _batch(spec)
    reward = build()
    expected = reward(completions, **kwargs)
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(reward, completions, **kwargs).result() == expected
    results = []
    thread = threading.Thread(target=lambda: results.append(reward(completions, **kwargs)))
    thread.start()
    thread.join(timeout=60)
    assert results == [expected]


def test_stable_name_equals_metric_name(spec):
    reward = build_reward(spec.name)
    assert reward.__name__ == metric_name(spec.name) == spec.name
    assert build_reward(spec.name, spec.defaults()).__name__ == spec.name
