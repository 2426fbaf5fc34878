"""callscore: a deterministic, judge-free scorer for LLM function-calling evaluations.

The public API (scorer.api): `Gold.from_file(path, **options)` / `Gold.from_table(table,
**options)` load and normalize a gold set once; `gold.score_batch(predictions)` gives the
verdict columns the CLI writes; `summarize(verdicts)` the named figures of its summary."""

__version__ = "0.1.0"

from scorer.api import Gold, Options, score_file, summarize  # noqa: E402 - after __version__, which they import

__all__ = ["Gold", "Options", "score_file", "summarize", "__version__"]
