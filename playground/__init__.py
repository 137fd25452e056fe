"""GRPO Reward Playground engine. Core modules at this level (`spec`, `validation`, `models`, `scoring`, `advantages`,
`preview`, `reward_tests`, `errors`, `admission`, `redact`, `testing`, and `console`, the command); packages: `data`
(prompt sources, file parsers, chat rendering, uploads), `fastpath` (the CPU step), `sandbox` (custom reward code),
`isolation` (public mode's per-visitor workers), `training` (runs, the run queue, run folders, alerts, compare),
`export` (recipe, script, weights, Hub), `lab` (the reward lab), `lessons`, `texts` (the text catalogue, en and zh),
`runtime` (ZeroGPU, temporary folders), `cli`, and `ui` (gradio); `settings` holds every setting read from the
environment.

Importing a module changes nothing global. Each entry point (the app, the CLI, the MCP server, the workers) calls
`bootstrap()` once: it reads and checks the settings and makes the playground the reward library's host.

Nothing here but `playground.ui` imports gradio (tests/ui/test_engine_has_no_gradio.py); no import circles
(tests/test_layout.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from playground.settings import Settings

__version__ = "0.1.0"


def bootstrap(settings: Settings | None = None) -> Settings:
    """Set the process up for the playground, once per entry point; returns the settings it installed.

    - the settings: `settings`, else the environment's, each value checked (`playground.settings`: a bad value is a
      `PlaygroundError` naming the variable and the values it allows);
    - the reward library's host (`rewards.host.configure`): its errors join the `PlaygroundError` family, its answer
      checks follow public mode, its judge loads models with the playground's loader;
    - the runner that `code_tests` runs programs with, in the sandbox (`playground.sandbox.programs`).
    """
    import rewards.host
    from playground import settings as settings_module
    from playground.errors import RewardError
    from playground.sandbox.programs import ProgramRunner
    from rewards.code import install_program_runner

    settings = settings or settings_module.Settings.from_env()
    settings_module.install(settings)
    rewards.host.configure(
        error_class=RewardError, public=settings_module.is_public, load_model="playground.models:load_model"
    )
    install_program_runner(ProgramRunner())
    return settings
