"""Where visitor work runs in public mode: library rewards in per-owner visitor workers (`visitor.py`), and shared
pools with a per-visitor in-flight limit (`slots.py`). `code_tests` programs run in fresh confined children
(`playground.sandbox.programs`), custom code in each session's sandbox worker. docs/security.md, "Where work runs"."""
