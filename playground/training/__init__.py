"""A training run and what follows it: `job` (GRPOTrainer in a background thread), `store` (run folders), `health`
(alerts from the metrics) and `compare` (base against adapter).

May import the engine's core modules, `playground.fastpath`, `playground.sandbox` and `rewards`; never export, cli, ui.
"""
