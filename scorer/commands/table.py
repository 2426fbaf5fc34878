"""`score table`: paper tables from a verdict file, with re-weighting and bootstrap intervals.

Re-weighting (`--reweight difficulty=easy:0.6,medium:0.3,hard:0.1`) computes each share per
stratum (value of the column) and combines them: metric = sum_s w_s * metric_s / sum_s w_s over
the strata present in the group whose metric is defined (zero denominators drop out), so the
weights are renormalized over what is there. Rows are never resampled for it. Counts (n, P, N)
stay the raw counts.

Bootstrap intervals (`--ci 0.95 --bootstrap 1000 --seed 0`) resample rows with replacement within
each group (and within each stratum when re-weighting). Every metric depends on a row only
through its category (positive, outcome, subtype, decided, missing), so a resample of n rows is
drawn as its category counts: one multinomial(n, counts / n) draw, the same distribution as
drawing rows one by one, at a cost independent of n. Each group has its own
Generator(PCG64(SeedSequence([seed, hash of model and group]))), so a group's interval does not
depend on which other groups are in the table. Intervals are percentile intervals.

With several samples per instance the rows are not independent: `--cluster id` resamples
instances (all their rows at once) instead of rows, within each group and stratum alike.
"""

from __future__ import annotations

import hashlib
import re

import click
import numpy as np
import pyarrow as pa

from scorer import vocab
from scorer.aggregate import (METRICS, Tally, category_sort_key, metric_masks, metrics_of,
                              value_sort_key)
from scorer.commands.common import FiniteRange, bad_input_exits
from scorer.errors import InputError
from scorer.outputs import check_outputs, written_atomically
from scorer.report import FORMATS, Estimate, render
from scorer.verdicts import read_verdicts

PAPER_COLUMNS = (
    "n", "recall", "accuracy", vocab.MISS_RECALL, vocab.PARAM_ERROR,
    *(f"{vocab.PARAM_ERROR}/{s}" for s in vocab.SUBTYPES[vocab.PARAM_ERROR]),
    vocab.OVER_RECALL,
    *(f"{vocab.OVER_RECALL}/{s}" for s in vocab.NEGATIVE_TYPES),
    vocab.EXTRA_CALL,
)
ALL_VALUES = "all"
MAX_DRAWS = 100_000


def parse_reweight(text: str) -> tuple[str, dict]:
    """`col=v:w,v:w` -> (col, {value: weight}); weights non-negative, not all zero."""
    column, sep, spec = text.partition("=")
    if not sep or not column.strip() or not spec.strip():
        raise click.BadParameter("expected COLUMN=value:weight,value:weight", param_hint="--reweight")
    weights = {}
    for part in spec.split(","):
        value, sep, weight = part.rpartition(":")
        try:
            number = float(weight)
        except ValueError:
            number = None
        if not sep or not value.strip() or number is None or not np.isfinite(number) or number < 0:
            raise click.BadParameter(f"bad stratum weight {part!r} (want value:weight, weight >= 0)",
                                     param_hint="--reweight")
        weights[value.strip()] = number
    if sum(weights.values()) <= 0:
        raise click.BadParameter("weights sum to zero", param_hint="--reweight")
    return column.strip(), weights


def _group_seed(seed: int, model, label: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{model}\0{label}".encode()).digest()
    entropy = [seed, int.from_bytes(digest[:8], "big")]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


def _shares(counts: np.ndarray, categories: list) -> np.ndarray:
    """Every metric for each row of `counts` (draws x categories); NaN where undefined."""
    numerators, denominators = metric_masks(categories)
    top, bottom = counts @ numerators, counts @ denominators
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


def _combine(strata: list[tuple[float, np.ndarray]]) -> np.ndarray:
    """sum w_s m_s / sum w_s over strata whose metric is defined, elementwise."""
    total = weight = 0.0
    for w, values in strata:
        defined = ~np.isnan(values)
        total = total + np.where(defined, w * np.nan_to_num(values), 0.0)
        weight = weight + np.where(defined, w, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(weight > 0, total / np.where(weight > 0, weight, 1), np.nan)


def _bootstrap(strata, rng, draws: int, clusters=None) -> np.ndarray:
    """(draws x metrics) resampled shares, strata = [(weight, {category: count})]. With
    `clusters` (per stratum, its clusters' counters), whole clusters are drawn instead of rows:
    C clusters drawn with replacement are C multinomial(C, 1/C) multiplicities."""
    combined = []
    for index, (w, counter) in enumerate(strata):
        categories = sorted(counter, key=category_sort_key)
        if clusters is None:
            counts = np.array([counter[c] for c in categories], dtype=np.int64)
            drawn = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=draws)
        else:
            members = np.array([[member.get(c, 0) for c in categories] for member in clusters[index]], np.int64)
            size = len(members)
            drawn = rng.multinomial(size, np.full(size, 1 / size), size=draws) @ members
        combined.append((w, _shares(drawn, categories)))
    return _combine(combined)


def _cluster_index(tally: Tally, cluster: str) -> dict:
    """(model, grouping, values) -> the counters of its clusters, in value order, from the
    tally's groupings that end with the cluster column."""
    index = {}
    for model, grouping, values in tally.keys():
        if grouping and grouping[-1] == cluster:
            index.setdefault((model, grouping[:-1], values[:-1]), []).append(
                tally.counts[(model, grouping, values)])
    return index


def _point(strata) -> dict:
    """Re-weighted shares of the metrics (None when no stratum defines them)."""
    values = [(w, metrics_of(counter)) for w, counter in strata]
    result = {}
    for metric in METRICS:
        if not metric.is_share:
            continue
        arrays = [(w, np.array([np.nan if m[metric.name] is None else m[metric.name]]))
                  for w, m in values]
        combined = float(_combine(arrays)[0])
        result[metric.name] = None if np.isnan(combined) else combined
    return result


def _interval(samples: np.ndarray, level: float) -> tuple:
    if np.all(np.isnan(samples)):
        return None, None
    tail = 100 * (1 - level) / 2
    low, high = np.nanpercentile(samples, [tail, 100 - tail])
    return float(low), float(high)


def table_rows(tally: Tally, by: tuple[str, ...], reweight: tuple[str, dict] | None,
               level: float | None, draws: int, seed: int, cluster: str | None = None) -> tuple[list[dict], list[str]]:
    """Rows (model, by columns, every metric) and notes about empty strata. With `cluster`,
    the tally also holds every grouping with the cluster column appended (see `table`)."""
    notes = []
    clusters_of = _cluster_index(tally, cluster) if cluster else None
    stratum_column, weights = reweight if reweight else (None, {})
    strata_seen = set()
    rows = []
    for model, grouping, values in tally.keys():
        if grouping not in ((), by):
            continue
        counter = tally.counts[(model, grouping, values)]
        row = {"model": model}
        row.update({c: values[i] if grouping else ALL_VALUES for i, c in enumerate(by)})
        metrics = metrics_of(counter)
        if stratum_column:
            stratum_grouping = grouping + (stratum_column,)
            strata, stratum_keys = [], []
            for (m, g, vals), stratum_counter in sorted(
                    tally.counts.items(), key=lambda item: tuple(value_sort_key(v) for v in item[0][2])):
                if m == model and g == stratum_grouping and vals[:-1] == values:
                    strata_seen.add(str(vals[-1]))
                    w = weights.get(str(vals[-1]), 0.0)
                    if w > 0:
                        strata.append((w, stratum_counter))
                        stratum_keys.append((m, g, vals))
            metrics.update(_point(strata) if strata else {
                m.name: None for m in METRICS if m.is_share})
        else:
            strata, stratum_keys = [(1.0, counter)], [(model, grouping, values)]
        if level is not None:
            clusters = [clusters_of[key] for key in stratum_keys] if cluster else None
            samples = _bootstrap(strata, _group_seed(seed, model, repr(values)), draws, clusters) if strata else None
            for index, metric in enumerate(METRICS):
                if metric.is_share:
                    low, high = (None, None) if samples is None else _interval(samples[:, index], level)
                    metrics[metric.name] = Estimate(metrics[metric.name], low, high)
        row.update(metrics)
        rows.append(row)
    for value in sorted(set(weights) - strata_seen):
        notes.append(f"reweight: {stratum_column}={value} has no rows; "
                     "its weight is spread over the strata present")
    return rows, notes


REWEIGHTED_BY = "reweighted_by"  # the json/csv field naming the re-weighted column, on every row

COMPACT_COLUMNS = ("recall", "accuracy", vocab.MISS_RECALL, vocab.PARAM_ERROR, vocab.OVER_RECALL)


def ordered_rows(rows: list, by: tuple, data: pa.Table, order=()) -> list:
    """Rows with each model's group values in their natural order: the order given (easy,
    medium, hard), then the order in which values first appear in the verdicts (length buckets
    and numbers: numeric order); a model's total (`all`) first. Models keep their order."""
    if not by:
        return rows
    rank = {}
    for column in by:
        values = data.column(column).unique().to_pylist()
        starts = [bucket_start(value) for value in values]
        if None not in starts:  # length buckets or numbers: in numeric order, whatever came first
            values = [value for _start, value in sorted(zip(starts, values), key=lambda pair: pair[0])]
        seen = [v for v in order if v] + values
        rank[column] = {value: i for i, value in enumerate(dict.fromkeys(map(_text, seen)))}

    def key(row):
        return tuple((-1,) if row[c] == ALL_VALUES else (rank[c].get(_text(row[c]), len(rank[c])),) for c in by)
    models = {model: i for i, model in enumerate(dict.fromkeys(row["model"] for row in rows))}
    return sorted(rows, key=lambda row: (models[row["model"]], key(row)))


_BUCKET = re.compile(r"(>)?(\d+)(?:–\d+)?")


def bucket_start(value) -> int | None:
    """The first length a bucket covers (`06–10` -> 6, `>40` -> 41), an integer itself; None
    for any other value. `score dialogue` writes the buckets; ordered as text, a bucket whose
    dialogues happen to come first would lead."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _BUCKET.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    return int(match.group(2)) + (1 if match.group(1) else 0)


def _text(value) -> str:
    return "null" if value is None else str(value)


def labelled_reweighted(rows: list, by: tuple, column: str) -> list:
    """The totals a re-weighting changed say so in their label, so that a reader never takes
    them for the plain mean over the rows."""
    label = f"{ALL_VALUES} (re-weighted by {column})"
    out = []
    for row in rows:
        row = dict(row)
        if by and all(row[c] == ALL_VALUES for c in by):
            row[by[0]] = label
        elif not by:
            row["model"] = f"{row['model']} (re-weighted by {column})"
        out.append(row)
    return out


def _rows_repeat(data: pa.Table) -> bool:
    """Whether some model has several rows for one id."""
    counts = data.select(["model", "id"]).group_by(["model", "id"], use_threads=False).aggregate([([], "count_all")])
    return counts.num_rows < data.num_rows


@click.command("table")
@click.argument("verdicts", type=click.Path(dir_okay=False))
@click.option("--by", multiple=True, help="Group by a column (repeatable; crossed). `model` is always a group.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True)
@click.option("--precision", type=click.IntRange(0, 6), default=1, show_default=True,
              help="Decimals of the percentages.")
@click.option("--columns", help="Comma-separated metric columns (default: the paper set), or `compact`: "
                                "the five headline shares, narrow enough for one LaTeX column.")
@click.option("--order", metavar="V1,V2,...",
              help="Order of the --by values, e.g. easy,medium,hard (default: as they first appear in the "
                   "verdicts; values not listed follow).")
@click.option("--reweight", help="Re-weight strata of a column, e.g. difficulty=easy:0.6,medium:0.3,hard:0.1.")
@click.option("--ci", type=FiniteRange(0, 1, min_open=True, max_open=True),
              help="Bootstrap confidence level, e.g. 0.95.")
@click.option("--bootstrap", "draws", type=click.IntRange(1, MAX_DRAWS), default=1000, show_default=True,
              help=f"Bootstrap resamples (with --ci), at most {MAX_DRAWS:,}: percentile intervals settle "
                   "within a few thousand, and each resample holds a count per category and a share "
                   "per metric in memory.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the bootstrap (a non-negative integer, as numpy's SeedSequence takes).")
@click.option("--cluster", metavar="COLUMN",
              help="Resample whole clusters of rows, e.g. `id` when each instance has several samples.")
@click.option("--bold-best/--no-bold-best", default=True, show_default=True,
              help="Bold the best value per column (md, latex).")
@click.option("--pass-k", "sample", metavar="COLUMN",
              help="Instead: pass^k and pass@k per model over repeated samples told apart by COLUMN "
                   "(τ-bench; e.g. `sample` kept with --keep), one sample per row and (model, id).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here instead of stdout.")
def table(verdicts, by, fmt, precision, columns, reweight, ci, draws, seed, cluster, bold_best, sample, output, order):
    """Metrics of a verdict file as a paper table.

    Example: score table verdicts.parquet --by difficulty --format latex --ci 0.95
    """
    check_outputs([verdicts], [("-o/--output", output, None)])
    if sample:
        from scorer.dialogue import pass_k_rows

        with bad_input_exits(verdicts):
            data = read_verdicts(verdicts)
            if sample not in data.column_names:
                raise InputError(verdicts, "no such column of samples", field=sample)
            text = render(pass_k_rows(data, sample), fmt, precision=precision, bold_best=bold_best)
        _emit(text, output)
        return
    weights = parse_reweight(reweight) if reweight else None
    by = tuple(dict.fromkeys(c for c in by if c != "model"))
    with bad_input_exits(verdicts):
        data = read_verdicts(verdicts)
        wanted = set(by) | ({weights[0]} if weights else set()) | ({cluster} if cluster else set())
        absent = sorted(wanted - set(data.column_names))
        if absent:
            raise InputError(verdicts, "no such column to group by", field=", ".join(absent))
        if data.num_rows == 0:
            raise InputError(verdicts, "no verdict rows to tabulate")
        groupings = [by] if by else []
        if weights:
            groupings += [(weights[0],), by + (weights[0],)] if by else [(weights[0],)]
        if cluster and ci:
            groupings += [grouping + (cluster,) for grouping in [(), *groupings]]
        tally = Tally(by=tuple(dict.fromkeys(groupings)))
        tally.add(data)
    rows, notes = table_rows(tally, by, weights, ci, draws, seed, cluster if ci else None)
    if ci and not cluster and _rows_repeat(data):
        notes.append("rows repeat per (model, id) (several samples?): the intervals treat them as "
                     "independent; --cluster id resamples ids instead")
    for note in notes:
        click.echo(note, err=True)
    rows = ordered_rows(rows, by, data, order.split(",") if order else ())
    weighting = []
    if weights and fmt in ("text", "md", "latex"):  # json and csv keep the values programs key on
        rows = labelled_reweighted(rows, by, weights[0])
    elif weights:  # ... and say so in a field of their own
        rows = [{**row, REWEIGHTED_BY: weights[0]} for row in rows]
        weighting = [REWEIGHTED_BY]
    chosen = list(COMPACT_COLUMNS) if columns == "compact" else \
        [c.strip() for c in columns.split(",")] if columns else list(PAPER_COLUMNS)
    unknown = [c for c in chosen if c not in rows[0]]
    if unknown:
        raise click.BadParameter(f"unknown column(s) {', '.join(unknown)}", param_hint="--columns")
    text = render(rows, fmt, precision=precision, columns=["model", *by, *weighting, *chosen],
                  bold_best=bold_best)
    _emit(text, output)


def _emit(text: str, output):
    if output:
        with written_atomically(output) as handle:
            handle.write(text.encode("utf-8"))
    else:
        click.echo(text, nl=False)
