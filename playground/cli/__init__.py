"""The command line, `grpo-playground …` (or `python -m playground …`): `main` dispatches; `train` parses with TRL's
parser over the run spec's dataclasses (`args`), reading a `trl grpo` YAML with `--config` (`recipe` maps its
rewards); `export`, `check` and `lab` run the other subcommands. The web app (`grpo-playground app`) is started by
`playground.console`, above this package.

Adapters only: may import any engine package (`playground.*` outside `ui`, `rewards`), never gradio or `playground.ui`.
"""
