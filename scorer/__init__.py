"""callscore: a deterministic, judge-free scorer for LLM function-calling evaluations."""

__version__ = "0.1.0"
