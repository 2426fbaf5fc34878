"""Compatibility modes: another checker's verdicts reproduced exactly, selected by `--compat`.

callscore's own rules (the default) differ from a benchmark's checker on purpose
(docs/deliberate_differences.md); a paper that reports a benchmark's numbers needs that
checker's verdicts instead. Each mode is one module that decides valid/invalid per row the
way the benchmark does; scorer.pipeline writes its verdicts in the usual columns.
"""
