"""The reward lab: a dry run over a prompt set (`dryrun`, `sampling`), TRL's step-0 statistics and instant re-scoring
(`stats`), the reward-hacking probe (`probe`) and OpenAI grader import/export (`graders`).

May import the engine's core modules, `playground.fastpath`, `playground.sandbox` and `rewards`; never training,
export, cli or ui.
"""
