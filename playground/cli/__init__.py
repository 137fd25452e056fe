"""The command line, `python -m playground …`: `main` parses, `train`, `export` and `check` run their subcommands.

Adapters only: may import any engine package (`playground.*` outside `ui`, `rewards`), never gradio or `playground.ui`.
"""
