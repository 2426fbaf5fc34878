"""Verdicts -> counters -> metrics, batch by batch.

A `Tally` never holds verdict rows: per (model, grouping, group values) it keeps how many rows
fell in each *category* (positive, outcome, subtype, decided, missing_prediction). Every metric
is a ratio of two sums over categories (see `METRICS`), so merging tallies is adding counters,
and the bootstrap in `score table` can redraw category counts without touching rows.

Metric definitions (also in docs/metrics.md). P = rows whose gold has a call, N = rows whose
gold is [] (n = P + N):

- recall       = correct positives / P
- accuracy     = correct rows / (P + N)
- miss_recall  = miss_recall / P            (and each of its subtypes / P)
- param_error  = param_error / P            (and each of its subtypes / P)
- over_recall  = over_recall on negatives / N  (and each negative type / N)
- extra_call   = over_recall/extra_call / P
- decided      = rows decided by the rules / n
- counts: n, P, N, correct_n, missing_n (gold ids with no prediction), undecided_n, and
  `<outcome>_n`, `<outcome>/<subtype>_n` for every outcome and subtype.
A share whose denominator is zero is None (shown as "–"), never a division error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab

# One category = (positive, outcome, subtype, decided, missing_prediction).
Category = tuple
_POSITIVE, _OUTCOME, _SUBTYPE, _DECIDED, _MISSING = range(5)
_CATEGORY_COLUMNS = ("positive", "outcome", "subtype", "decided", "missing_prediction")

ALL = "all"


def _always(category: Category) -> bool:
    return True


def _positive(category: Category) -> bool:
    return bool(category[_POSITIVE])


def _negative(category: Category) -> bool:
    return not category[_POSITIVE]


def _outcome_is(outcome: str) -> Callable[[Category], bool]:
    return lambda category: category[_OUTCOME] == outcome


def _subtype_is(outcome: str, subtype: str) -> Callable[[Category], bool]:
    return lambda category: category[_OUTCOME] == outcome and category[_SUBTYPE] == subtype


def _both(first, second) -> Callable[[Category], bool]:
    return lambda category: first(category) and second(category)


@dataclass(frozen=True)
class Metric:
    """A count (denominator None) or a share numerator / denominator over categories."""

    name: str
    numerator: Callable[[Category], bool]
    denominator: Callable[[Category], bool] | None = None
    higher_is_better: bool = False

    @property
    def is_share(self) -> bool:
        return self.denominator is not None


_NEGATIVE_SUBTYPES = vocab.NEGATIVE_TYPES + (vocab.UNSPECIFIED,)


def _metric_table() -> tuple[Metric, ...]:
    """Headline metrics first, then every subtype's share, then every count."""
    headline = [
        Metric("n", _always),
        Metric("P", _positive),
        Metric("N", _negative),
        Metric("recall", _both(_outcome_is(vocab.CORRECT), _positive), _positive, True),
        Metric("accuracy", _outcome_is(vocab.CORRECT), _always, True),
        Metric(vocab.MISS_RECALL, _outcome_is(vocab.MISS_RECALL), _positive),
        Metric(vocab.PARAM_ERROR, _outcome_is(vocab.PARAM_ERROR), _positive),
        Metric(vocab.OVER_RECALL, _both(_outcome_is(vocab.OVER_RECALL), _negative), _negative),
        Metric(vocab.EXTRA_CALL, _subtype_is(vocab.OVER_RECALL, vocab.EXTRA_CALL), _positive),
        Metric("decided", lambda c: bool(c[_DECIDED]), _always, True),
        Metric("missing_n", lambda c: bool(c[_MISSING])),
        Metric("undecided_n", lambda c: not c[_DECIDED]),
    ]
    shares, counts = [], [Metric("correct_n", _outcome_is(vocab.CORRECT))]
    for outcome in (vocab.MISS_RECALL, vocab.PARAM_ERROR, vocab.OVER_RECALL):
        counts.append(Metric(f"{outcome}_n", _outcome_is(outcome)))
        for subtype in vocab.SUBTYPES[outcome]:
            name = f"{outcome}/{subtype}"
            over = _negative if subtype in _NEGATIVE_SUBTYPES else _positive
            shares.append(Metric(name, _subtype_is(outcome, subtype), over))
            counts.append(Metric(f"{name}_n", _subtype_is(outcome, subtype)))
    return tuple(headline + shares + counts)


METRICS = _metric_table()
METRIC_BY_NAME = {metric.name: metric for metric in METRICS}
HEADLINE = ("n", "P", "N", "recall", "accuracy", vocab.MISS_RECALL, vocab.PARAM_ERROR,
            vocab.OVER_RECALL, vocab.EXTRA_CALL, "decided", "missing_n")


def metric_masks(categories: list[Category]) -> tuple[np.ndarray, np.ndarray]:
    """0/1 matrices (categories x metrics) for numerators and denominators (1 for counts).

    counts @ numerators / counts @ denominators gives every metric at once, for one count
    vector or a whole stack of bootstrap draws."""
    numerators = np.array([[m.numerator(c) for m in METRICS] for c in categories], dtype=np.int64)
    denominators = np.array(
        [[m.denominator(c) if m.is_share else 1 for m in METRICS] for c in categories],
        dtype=np.int64,
    )
    shape = (len(categories), len(METRICS))
    return numerators.reshape(shape), denominators.reshape(shape)


def metrics_of(counts: dict[Category, int]) -> dict:
    """Every metric of one counter, in METRICS order: ints for counts, float | None for shares."""
    categories = sorted(counts, key=category_sort_key)
    vector = np.array([counts[c] for c in categories], dtype=np.int64)
    numerators, denominators = metric_masks(categories)
    top, bottom = vector @ numerators, vector @ denominators
    result = {}
    for index, metric in enumerate(METRICS):
        if metric.is_share:
            result[metric.name] = None if bottom[index] == 0 else int(top[index]) / int(bottom[index])
        else:
            result[metric.name] = int(top[index])
    return result


def category_sort_key(category: Category) -> tuple:
    return tuple("" if part is None else str(part) for part in category)


def value_sort_key(value) -> tuple:
    """Sorts group values of any one type, with null first, deterministically."""
    return (value is not None, type(value).__name__, "" if value is None else value)


def group_label(columns: tuple[str, ...], values: tuple) -> str:
    """`all` for the whole model, else `col=value` joined by `, ` (null shown as `null`)."""
    if not columns:
        return ALL
    return ", ".join(f"{c}={'null' if v is None else v}" for c, v in zip(columns, values))


class Tally:
    """Counters merged batch by batch (streaming: never needs the full verdict table).

    `by` names grouping columns; each entry is one grouping, a column name or a tuple of
    names to cross (("difficulty", "domain") gives model x difficulty x domain). Every model
    also gets its `all` group."""

    def __init__(self, by: tuple = ()) -> None:
        self.groupings: tuple[tuple[str, ...], ...] = tuple(
            (spec,) if isinstance(spec, str) else tuple(spec) for spec in by
        )
        self.by = tuple(by)
        # (model, grouping columns, group values) -> {category: rows}
        self.counts: dict[tuple, dict[Category, int]] = {}

    def _columns(self) -> list[str]:
        seen = []
        for grouping in self.groupings:
            seen.extend(c for c in grouping if c not in seen)
        return seen

    def add(self, verdicts: pa.Table | pa.RecordBatch) -> None:
        """Count one batch: a single pyarrow group_by; Python only walks the distinct keys."""
        table = pa.Table.from_batches([verdicts]) if isinstance(verdicts, pa.RecordBatch) else verdicts
        columns = self._columns()
        needed = ["model", *_CATEGORY_COLUMNS, *columns]
        absent = [c for c in needed if c not in table.column_names]
        if absent:
            raise ValueError(f"verdicts lack column(s) {', '.join(absent)}")
        if table.num_rows == 0:
            return
        _check_vocabulary(table)
        keys = ["model", *_CATEGORY_COLUMNS, *columns]
        frame = pa.table({
            **{c: table.column(c) for c in ["model", "positive", "outcome", "subtype", *columns]},
            "decided": pc.fill_null(table.column("decided"), False),
            "missing_prediction": pc.fill_null(table.column("missing_prediction"), False),
        })
        grouped = frame.group_by(keys, use_threads=False).aggregate([([], "count_all")])
        for row in grouped.to_pylist():
            category = (bool(row["positive"]), row["outcome"], row["subtype"],
                        bool(row["decided"]), bool(row["missing_prediction"]))
            for grouping in ((),) + self.groupings:
                key = (row["model"], grouping, tuple(row[c] for c in grouping))
                counter = self.counts.setdefault(key, {})
                counter[category] = counter.get(category, 0) + row["count_all"]

    def merge(self, other: "Tally") -> "Tally":
        """A new tally holding both (associative and commutative)."""
        if self.groupings != other.groupings:
            raise ValueError("cannot merge tallies grouped differently")
        merged = Tally(self.by)
        for source in (self, other):
            for key, counter in source.counts.items():
                target = merged.counts.setdefault(key, {})
                for category, rows in counter.items():
                    target[category] = target.get(category, 0) + rows
        return merged

    def keys(self) -> list[tuple]:
        """(model, grouping, values) in report order: model, then `all`, then each grouping
        in the order given, values sorted."""
        order = {grouping: index for index, grouping in enumerate(((),) + self.groupings)}
        return sorted(self.counts, key=lambda key: (
            key[0] or "", order[key[1]], tuple(value_sort_key(v) for v in key[2])))

    def rows(self) -> list[dict]:
        """One dict per model (group `all`) and per model x grouping values, sorted."""
        rows = []
        for key in self.keys():
            model, grouping, values = key
            rows.append({"model": model, "group": group_label(grouping, values),
                         **metrics_of(self.counts[key])})
        return rows


def _check_vocabulary(table: pa.Table) -> None:
    """Reject an outcome/subtype pair outside callscore's taxonomy, naming the first row
    (1-based within this table or batch)."""
    pairs = table.select(["outcome", "subtype"]).group_by(
        ["outcome", "subtype"], use_threads=False).aggregate([]).to_pylist()
    for pair in pairs:
        outcome, subtype = pair["outcome"], pair["subtype"]
        if outcome in vocab.SUBTYPES and (
            subtype in vocab.SUBTYPES[outcome] or (outcome == vocab.CORRECT and subtype is None)
        ):
            continue
        where = pc.and_(
            pc.is_null(table.column("outcome")) if outcome is None
            else pc.equal(table.column("outcome"), outcome),
            pc.is_null(table.column("subtype")) if subtype is None
            else pc.equal(table.column("subtype"), subtype),
        )
        index = pc.index(pc.fill_null(where, False), True).as_py()
        row_id = table.column("id")[index].as_py() if "id" in table.column_names else None
        raise ValueError(
            f"row {index + 1} (id {row_id}): outcome/subtype {outcome}/{subtype} "
            "is not in callscore's taxonomy"
        )
