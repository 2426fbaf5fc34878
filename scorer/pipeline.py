"""The pipeline, readable from the top: load -> parse/normalize (encode) -> match -> attribute
-> aggregate -> report. The CLI is a thin layer over `score_files`; adapters and tests call
`score_tables` with tables already in callscore's schema."""

from dataclasses import dataclass, field

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from scorer import __version__, load
from scorer.aggregate import Tally
from scorer.attribute import Attributor
from scorer.encode import Codebook, GoldIndex, PredictionEncoder
from scorer.match import IMPLEMENTATION, match
from scorer.options import Options
from scorer.rules import rules_hash
from scorer.write import VerdictWriter

_FIRST_IDS_SHOWN = 5


@dataclass
class Result:
    """What a run produced besides the verdict file."""

    tally: Tally
    verdicts: pa.Table | None = None          # kept only when asked (tables API, tests)
    unknown_ids: int = 0
    first_unknown_ids: list = field(default_factory=list)
    missing_predictions: int = 0
    unreadable_lines: list = field(default_factory=list)
    implementation: str = IMPLEMENTATION
    rules_hash: str = ""
    judge_rows: int = 0                       # undecided rows exported for a judge
    judge_tokens: int = 0                     # their estimated prompt tokens

    def notes(self) -> list:
        """One line per thing a user must know about the input."""
        lines = []
        if self.unknown_ids:
            lines.append(f"{self.unknown_ids} prediction(s) with an id not in gold skipped "
                         f"(first: {', '.join(self.first_unknown_ids)})")
        if self.missing_predictions:
            lines.append(f"{self.missing_predictions} gold id(s) had no prediction for a model: "
                         "scored as empty predictions")
        if self.judge_rows:
            lines.append(f"{self.judge_rows} undecided row(s) exported for a judge "
                         f"(about {self.judge_tokens} prompt tokens)")
        for number, reason in self.unreadable_lines[:_FIRST_IDS_SHOWN]:
            lines.append(f"prediction line {number} unreadable, skipped: {reason}")
        if len(self.unreadable_lines) > _FIRST_IDS_SHOWN:
            lines.append(f"... {len(self.unreadable_lines) - _FIRST_IDS_SHOWN} more unreadable lines")
        return lines


def metadata(options: Options) -> dict:
    """Provenance stored in every verdict file: no timestamps, nothing machine-specific (the
    implementation is reported, not stored: both give identical verdicts)."""
    return {"callscore.version": __version__, "callscore.rules_hash": rules_hash(),
            "callscore.options": options.fingerprint()}


class Scorer:
    """Scores prediction batches against one gold set."""

    def __init__(self, gold_table: pa.Table, gold_path, options: Options, by=(), collect_undecided=False):
        self.options = options
        self.gold_table = gold_table
        self.undecided = [] if collect_undecided else None   # judge-ready records
        self.gold = GoldIndex(gold_table, gold_path, options, Codebook(), Codebook(), Codebook())
        self.encoder = PredictionEncoder(self.gold, options)
        self.attributor = Attributor(self.gold, options)
        self.carried = list(self.gold.carried_types)
        self.seen = {}             # model -> set of gold rows predicted
        self.result = Result(Tally(tuple(by)), rules_hash=rules_hash())

    def score_batch(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        """Verdicts for one prediction batch, in its row order (unknown ids left out)."""
        positions = pc.index_in(batch.column("id"), value_set=self._gold_ids())
        known = pc.is_valid(positions)
        unknown = batch.num_rows - pc.sum(known).as_py() if batch.num_rows else 0
        if unknown:
            self.result.unknown_ids += unknown
            room = _FIRST_IDS_SHOWN - len(self.result.first_unknown_ids)
            if room > 0:
                self.result.first_unknown_ids += pc.filter(batch.column("id"), pc.invert(known)).to_pylist()[:room]
            batch = batch.filter(known)
            positions = pc.filter(positions, known)
        self._note_seen(batch.column("model"), positions)
        # A verdict depends only on the gold row and the prediction: score each distinct
        # (gold row, prediction) once, then spread the verdicts back over the rows.
        distinct = pc.dictionary_encode(prediction_keys(batch, positions))
        spread = distinct.indices.to_numpy(zero_copy_only=False)
        _, first = np.unique(spread, return_index=True)
        firsts = batch.take(pa.array(first))
        g_rows = positions.to_numpy(zero_copy_only=False).astype("int64")[first]
        verdicts, encoded, matched = self._verdicts(
            firsts.column("id").to_pylist(), firsts.column("model").to_pylist(), g_rows,
            firsts.column("calls").to_pylist(), firsts.column("output").to_pylist(),
            firsts.column("malformed").to_pylist())
        verdicts = verdicts.take(distinct.indices)
        verdicts = verdicts.set_column(0, "model", batch.column("model")).set_column(1, "id", batch.column("id"))
        self._account(verdicts, encoded, matched, spread)
        return verdicts

    def _note_seen(self, models, positions):
        pairs = pa.table({"model": models, "row": positions}).group_by(["model", "row"]).aggregate([])
        for model, row in zip(pairs.column("model").to_pylist(), pairs.column("row").to_pylist()):
            self.seen.setdefault(model, set()).add(row)

    def missing_batch(self) -> pa.RecordBatch | None:
        """Empty predictions for every gold id a model did not predict, sorted by (model, id)."""
        ids, models, g_rows = [], [], []
        for model in sorted(self.seen):
            absent = [row for row in range(len(self.gold.rows)) if row not in self.seen[model]]
            for row in sorted(absent, key=lambda r: self.gold.rows[r].id):
                ids.append(self.gold.rows[row].id)
                models.append(model)
                g_rows.append(row)
        if not ids:
            return None
        self.result.missing_predictions = len(ids)
        verdicts, encoded, matched = self._verdicts(ids, models, np.array(g_rows, np.int64),
                                                    *([None] * len(ids),) * 3)
        flag = verdicts.schema.get_field_index("missing_prediction")
        verdicts = verdicts.set_column(flag, "missing_prediction", pa.array([True] * len(ids)))
        self._account(verdicts, encoded, matched, np.arange(len(ids)))
        return verdicts

    def _verdicts(self, ids, models, g_rows, calls, outputs, malformed):
        encoded = self.encoder.encode(g_rows, calls, outputs, malformed)
        matched = match(self.gold.arrays, encoded.arrays, encoded.pair_keys, encoded.pair_status,
                        self.options.temporal_format == "strict")
        return self.attributor.batch(ids, models, g_rows, encoded, matched, self.carried), encoded, matched

    def _account(self, verdicts, encoded, matched, spread):
        """Count the batch, and keep judge-ready records of its undecided rows (with the calls
        as the model wrote them, not only their normalized forms)."""
        self.result.tally.add(verdicts)
        if self.undecided is None or matched.decided.all():
            return
        from scorer.judge import undecided_records

        rows = (matched.decided[spread] == 0).nonzero()[0]
        undecided = verdicts.take(pa.array(rows))
        ids, models = undecided.column("id").to_pylist(), undecided.column("model").to_pylist()
        calls = {(model, identifier): [{"name": tool, "arguments": {p: raw for p, raw, _c in arguments}}
                                       for tool, arguments in encoded.calls[spread[row]]]
                 for model, identifier, row in zip(models, ids, rows)}
        self.undecided.extend(undecided_records(pa.Table.from_batches([undecided]), self.gold_table, calls))

    def _gold_ids(self):
        if not hasattr(self, "_ids"):
            self._ids = pa.array([row.id for row in self.gold.rows], pa.string())
        return self._ids


def prediction_keys(batch: pa.RecordBatch, positions: pa.Array) -> pa.Array:
    """One string per row naming everything its verdict depends on besides model and id: the
    gold row and the prediction (a reader's malformed reason, else the calls, else the output).
    Built with Arrow kernels: no Python object per row."""
    def tagged(tag, column):
        return pc.binary_join_element_wise(tag, column.cast(pa.string()), "\x1d")

    key = pc.coalesce(tagged("m", batch.column("malformed")), tagged("c", calls_text(batch.column("calls"))),
                      tagged("o", batch.column("output")), pa.scalar("n"))
    return pc.binary_join_element_wise(positions.cast(pa.string()), key, "\x1c")


def calls_text(calls: pa.Array) -> pa.Array:
    """`calls` as one string per row (null stays null): list<struct<name, arguments>> is joined
    with Arrow kernels; JSON text is taken as it is."""
    if not pa.types.is_list(calls.type) or not pa.types.is_struct(calls.type.value_type) or \
            calls.type.value_type.names != ["name", "arguments"] or \
            not all(pa.types.is_string(f.type) for f in calls.type.value_type):
        if pa.types.is_string(calls.type) or pa.types.is_null(calls.type):
            return calls
        return pa.array([None if v is None else orjson.dumps(v).decode() for v in calls.to_pylist()], pa.string())
    flat = calls.flatten()
    joined = pc.binary_join_element_wise(pc.fill_null(flat.field("name"), ""),
                                         pc.fill_null(flat.field("arguments"), "\x00"), "\x1f")
    offsets = pc.subtract(calls.offsets, calls.offsets[0])
    return pc.binary_join(pa.ListArray.from_arrays(offsets, joined, mask=calls.is_null()), "\x1e")


def score_files(predictions_path, gold_path, options: Options = Options(), out=None, by=(), keep=False,
                undecided=None) -> Result:
    """Score a predictions file against a gold file; write verdicts to `out` and judge-ready
    records of the undecided rows to `undecided` if given."""
    gold_table = load.read_gold_table(gold_path)
    scorer = Scorer(gold_table, gold_path, options, by, collect_undecided=bool(undecided))
    unreadable = load.Unreadable()
    writer = VerdictWriter(out, metadata(options)) if out else None
    kept = []
    try:
        for _first, batch in load.iter_prediction_batches(predictions_path, options.batch_size, unreadable):
            verdicts = scorer.score_batch(batch)
            _emit(verdicts, writer, kept, keep)
        missing = scorer.missing_batch()
        if missing is not None:
            _emit(missing, writer, kept, keep)
    except BaseException:
        if writer:
            writer.abort()
        raise
    if writer:
        writer.close()
    scorer.result.unreadable_lines = unreadable.lines
    if undecided:
        from scorer.judge import write_undecided

        scorer.result.judge_rows, scorer.result.judge_tokens = write_undecided(scorer.undecided, undecided)
    if keep:
        scorer.result.verdicts = pa.Table.from_batches(kept) if kept else None
    return scorer.result


def _emit(verdicts, writer, kept, keep):
    if writer:
        writer.write(verdicts)
    if keep:
        kept.append(verdicts)


def score_tables(predictions: pa.Table, gold: pa.Table, options: Options = Options(), by=()) -> Result:
    """Score tables already in callscore's schemas (adapters, tests); verdicts kept in memory."""
    scorer = Scorer(gold, "gold", options, by)
    batches = []
    for batch in predictions.to_batches(max_chunksize=options.batch_size):
        batches.append(scorer.score_batch(load.prediction_batch("predictions", batch)))
    missing = scorer.missing_batch()
    if missing is not None:
        batches.append(missing)
    result = scorer.result
    result.verdicts = pa.Table.from_batches(batches) if batches else None
    return result
