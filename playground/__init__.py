"""GRPO Reward Playground engine: models, data, rewards scoring, preview, training, run store, export.

This package never imports gradio; the UI lives in `playground.ui`.
"""

__version__ = "0.1.0"
