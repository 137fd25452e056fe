"""GRPO Reward Playground engine. Core modules at this level (`spec`, `validation`, `models`, `scoring`, `advantages`,
`preview`, `reward_tests`, `errors`, `admission`, `redact`, `testing`, and `console`, the command); packages: `data`
(prompt sources, file parsers, chat rendering, uploads), `fastpath` (the CPU step), `sandbox` (custom reward code),
`isolation` (public mode's per-visitor workers), `training` (runs, the run queue, run folders, alerts, compare),
`export` (recipe, script, weights, Hub), `lab` (the reward lab), `lessons`, `texts` (the text catalogue, en and zh),
`runtime` (public mode, ZeroGPU, temporary folders), `cli`, and `ui` (gradio).

Nothing here but `playground.ui` imports gradio (tests/ui/test_engine_has_no_gradio.py); no import circles
(tests/test_layout.py).
"""

__version__ = "0.1.0"
