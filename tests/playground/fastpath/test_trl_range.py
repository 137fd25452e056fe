"""The fast path overrides three private methods of TRL's `GRPOTrainer`: a TRL whose methods take other arguments
turns it off, with one log line, and the run trains with TRL's own code."""

import logging

from trl import GRPOTrainer

from playground.fastpath.trainer import OVERRIDDEN, FastGRPOTrainer, private_method_mismatches


def test_the_installed_trl_has_the_methods_the_fast_path_expects():
    assert private_method_mismatches(FastGRPOTrainer) == []
    assert set(OVERRIDDEN) <= set(vars(FastGRPOTrainer))  # every override is checked


class ChangedTRL(GRPOTrainer):
    """A TRL whose `_compute_loss` takes a new required argument (its callers pass it)."""

    calls = 0

    def _compute_loss(self, model, inputs, scale):
        ChangedTRL.calls += 1
        return GRPOTrainer._compute_loss(self, model, inputs) * scale

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        return self._compute_loss(model, inputs, 1.0)


class OnChangedTRL(FastGRPOTrainer, ChangedTRL):
    """The fast path's trainer on that TRL: below FastGRPOTrainer in the MRO sits ChangedTRL."""


class RenamedTRL(GRPOTrainer):
    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, n, has_tool_images=False):
        return super()._generate_single_turn(prompt_ids, images, multimodal_fields, n, has_tool_images)


class OnRenamedTRL(FastGRPOTrainer, RenamedTRL):
    pass


def test_a_changed_signature_is_reported():
    assert private_method_mismatches(OnChangedTRL) == ["_compute_loss(self, model, inputs, scale)"]
    assert [m.split("(")[0] for m in private_method_mismatches(OnRenamedTRL)] == ["_generate_single_turn"]


def test_a_changed_trl_trains_with_its_own_methods(tiny_model_dir, tmp_path, caplog):
    from datasets import Dataset
    from peft import LoraConfig
    from trl import GRPOConfig

    args = GRPOConfig(
        output_dir=str(tmp_path),
        max_steps=1,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=4,
        use_cpu=True,
        report_to=[],
        save_strategy="no",
    )
    with caplog.at_level(logging.WARNING, logger="playground.fastpath.internals"):
        trainer = OnChangedTRL(
            model=str(tiny_model_dir),
            reward_funcs=lambda completions, **kwargs: [float(len(c)) for c in completions],
            args=args,
            train_dataset=Dataset.from_dict({"prompt": ["hello", "world"]}),
            peft_config=LoraConfig(r=4, target_modules="all-linear", task_type="CAUSAL_LM"),
        )
    [line] = [r.getMessage() for r in caplog.records if "fast path's trainer is off" in r.getMessage()]
    assert "_compute_loss(self, model, inputs, scale)" in line
    assert not trainer._rollout_enabled
    assert trainer.fast_path_off == {"trainer": "_compute_loss(self, model, inputs, scale)"}
    assert trainer._compute_loss.__func__ is ChangedTRL._compute_loss  # TRL's own, not the override
    ChangedTRL.calls = 0
    trainer.train()
    assert ChangedTRL.calls == 1
    assert [row["step"] for row in trainer.state.log_history if "reward" in row] == [1]
