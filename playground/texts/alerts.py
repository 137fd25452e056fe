"""placeholder"""

TEXTS: dict[str, tuple[str, str]] = {}
