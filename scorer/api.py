"""The public door to callscore: load and normalize a gold set once, then score Arrow batches.

    >>> gold = Gold.from_file("data/examples/gold.parquet")
    >>> verdicts = gold.score_batch(pq.read_table("data/examples/predictions.parquet"))
    >>> summarize(verdicts)["tianshu-13b"]["all"]["accuracy"]

`score_batch` is a plain function of Arrow batches (same rows in, the CLI's verdict columns
out), so it serves any engine that maps batches: Ray Data's `map_batches`, Spark's
`mapInArrow`, a trainer's reward loop. The CLI (`score PREDICTIONS GOLD`) runs `score_file`,
which streams a file through the same `Gold`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import pyarrow as pa
import pyarrow.compute as pc

from scorer import load, pipeline
from scorer.aggregate import Tally
from scorer.options import Options

__all__ = ["Gold", "summarize", "score_file", "Options"]


class Gold:
    """A gold set parsed, validated and normalized once, ready to score prediction batches.

    Pickling carries the gold table and options, and the unpickled copy normalizes once: a
    worker (a Ray actor, a Spark task) builds it when it receives it, never per batch."""

    def __init__(self, table: pa.Table, options: Options = Options(), source: str | Path = "gold"):
        if options.fuzzy_low > options.fuzzy_high:
            raise ValueError("fuzzy_low must not exceed fuzzy_high")
        self.table, self.options, self.source = table, options, str(source)
        self._scorer = pipeline.Scorer(table, self.source, options)

    @classmethod
    def from_file(cls, path: str | Path, *, format: str = "auto", **options) -> "Gold":
        """Gold from a file: callscore's own .parquet/.jsonl/.json, or a benchmark's
        (`format="bfcl"` or `"acebench"`; auto detects where unambiguous). `options` are
        `scorer.Options` fields: reference_time, timezone, temporal_format, range_end,
        fuzzy_high, fuzzy_low, keep."""
        return cls(pipeline.read_gold(path, format), Options(**options), path)

    @classmethod
    def from_table(cls, table: pa.Table, **options) -> "Gold":
        """Gold from a table in callscore's gold schema (id, gold_calls, and optionally
        reference_time, tools, negative_type and carried columns)."""
        return cls(load.validated_gold(table, "gold"), Options(**options))

    @property
    def run_notes(self) -> dict:
        """What a run's Result says of this gold itself: the gold reader's notes (a BFCL row no
        answer meets) and how many gold rows have no reference time, as `Result` fields."""
        return {"gold_notes": list(self._scorer.gold_notes),
                "gold_without_reference": self._scorer.result.gold_without_reference}

    def __reduce__(self):
        return (Gold, (self.table, self.options, self.source))

    def score_batch(self, predictions: pa.RecordBatch | pa.Table) -> pa.RecordBatch:
        """Verdicts of prediction rows (id, model, calls and/or output, malformed, and the
        `keep` columns), in their order: exactly the columns and values the CLI writes for
        them. Rows whose id is not in gold are left out (as the CLI does, which notes them)."""
        scorer = self._scorer
        if isinstance(predictions, pa.Table):
            batches = predictions.to_batches(max_chunksize=self.options.batch_size) or \
                [pa.RecordBatch.from_pylist([], schema=predictions.schema)]
        else:
            batches = [predictions]
        verdicts = [scorer.score_prepared(scorer.prepare(load.prediction_batch("predictions", batch,
                                                                              self.options.keep)))[0]
                    for batch in batches]
        joined = pa.Table.from_batches(verdicts).combine_chunks().to_batches()
        return joined[0] if len(joined) == 1 else verdicts[0]   # several batches, or none with rows

    def missing_batch(self, scored: pa.Table | pa.RecordBatch | None = None) -> pa.RecordBatch | None:
        """Verdicts of empty predictions for every gold id a model has no row for, sorted by
        (model, id), as the CLI appends them; None when nothing is missing. The models and
        ids seen are those of `scored` (verdicts or predictions with `model` and `id`), or,
        without it, of every batch this object has scored."""
        scorer = self._scorer
        saved = scorer.seen
        if scored is not None:
            scorer.seen = {}
            models, ids = (scored.column(name).combine_chunks() if isinstance(scored, pa.Table)
                           else scored.column(name) for name in ("model", "id"))
            positions = pc.index_in(ids, value_set=scorer.gold_ids)
            known = pc.is_valid(positions)
            scorer._note_seen(pc.filter(models, known), pc.filter(positions, known))
        try:
            missing = scorer.missing_batch()
        finally:
            scorer.seen = saved
        return None if missing is None else missing[0]

    def score_file(self, predictions: str | Path, *, out: str | Path | None = None, by: Iterable = (),
                   undecided: str | Path | None = None, progress: Callable[[int], None] | None = None,
                   pred_format: str = "auto", renamed_dots: bool = False) -> pipeline.Result:
        """Stream a predictions file through this gold (the CLI's `score`): verdicts to `out`,
        judge-ready records of undecided rows to `undecided`, missing predictions appended;
        returns the run's `Result` (summary tally, notes). `jobs` > 1 forks workers."""
        return pipeline.score_files(predictions, self.source, self.options, out=out, by=by, undecided=undecided,
                                    progress=progress, pred_format=pred_format, renamed_dots=renamed_dots,
                                    scorer=self._scorer)


def score_file(predictions: str | Path, gold: str | Path, *, gold_format: str = "auto", **kwargs) -> pipeline.Result:
    """`score PREDICTIONS GOLD` as a function: `kwargs` are Options fields and the keyword
    arguments of `Gold.score_file` (out, by, undecided, progress, pred_format, renamed_dots)."""
    run_args = {name: kwargs.pop(name) for name in ("out", "by", "undecided", "progress", "pred_format",
                                                     "renamed_dots") if name in kwargs}
    return Gold.from_file(gold, format=gold_format, **kwargs).score_file(predictions, **run_args)


def summarize(verdicts: pa.Table | pa.RecordBatch, by: Iterable = ()) -> dict[str, dict[str, dict]]:
    """Named figures of verdicts, like HF evaluate's `compute`: {model: {group: {figure:
    value}}}, group `all` for every model and one per value of each `by` column; the figures
    are those of the CLI summary (recall, accuracy, miss_recall, ..., n, P, N and counts)."""
    tally = Tally(tuple(by))
    tally.add(verdicts)
    summary: dict[str, dict[str, dict]] = {}
    for row in tally.rows():
        figures = dict(row)
        model, group = figures.pop("model"), figures.pop("group")
        summary.setdefault(model, {})[group] = figures
    return summary
