"""Subcommands of `score`, one module each; scorer/cli.py registers them."""
