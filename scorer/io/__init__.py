"""Adapters and readers for formats other than callscore's own: BFCL, ACEBench, provider dumps."""
