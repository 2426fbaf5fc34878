"""Distributed runners, each a thin map of `scorer.Gold.score_batch` over an engine's batches."""
