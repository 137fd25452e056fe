"""GRPO Reward Playground engine. Core modules at this level (`spec`, `validation`, `data`, `models`, `scoring`,
`advantages`, `preview`, `errors`); packages: `fastpath` (the CPU step), `sandbox` (custom reward code),
`training` (runs, run folders, alerts, compare), `export` (recipe, script, weights, Hub), `cli`, and `ui` (gradio).

Nothing here but `playground.ui` imports gradio (tests/ui/test_engine_has_no_gradio.py); no import circles
(tests/test_layout.py).
"""

__version__ = "0.1.0"
