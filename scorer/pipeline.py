"""The pipeline, readable from the top: load -> parse/normalize (encode) -> match -> attribute
-> aggregate -> report. The CLI is a thin layer over `score_files`; adapters and tests call
`score_tables` with tables already in callscore's schema."""

import collections
import contextlib
import functools
import gc
import itertools
import json
import multiprocessing
import os
import signal
import sys
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from scorer import __version__, load
from scorer.aggregate import Tally
from scorer.attribute import Attributor
from scorer.duplicates import Duplicates
from scorer.encode import Codebook, GoldIndex, PredictionEncoder
from scorer.errors import InputError
from scorer.io import formats
from scorer.io.bfcl import GOLD_NOTES
from scorer.judge import UndecidedWriter
from scorer.match import IMPLEMENTATION, match
from scorer.options import Options
from scorer.parse import canonical_json
from scorer.parse_bulk import calls_values
from scorer.rules import check_rules, rules_hash
from scorer.tables import PREDICTIONS, VERDICTS_FIXED
from scorer.timings import Timings, wanted as timings_wanted
from scorer.vocab import NO_REFERENCE_TIME
from scorer.write import VerdictWriter

_FIRST_IDS_SHOWN = 5
SCORING_ERROR = "scoring_error"   # the rule of a row whose scoring raised (a callscore defect, not the model's)
MEMO_BYTES = 128 << 20       # verdicts remembered across batches, at most (their keys weigh as much again)
_KEY_ENTRY_BYTES = 120       # a remembered key's Python string header and dict slot, beside its text
READINGS = 65536             # verdicts remembered by reading (gold row, parsed calls) per process, at most
_RUN_GC_THRESHOLD = 50_000  # young objects between collections while scoring (Python's default: 700)
_RUN_GC_MIDDLE = 100        # young collections between middle-generation ones while scoring (default: 10)


@dataclass
class Result:
    """What a run produced besides the verdict file."""

    tally: Tally
    verdicts: pa.Table | None = None          # kept only when asked (tables API, tests)
    unknown_ids: int = 0
    first_unknown_ids: list = field(default_factory=list)
    missing_predictions: int = 0
    unreadable_lines: list = field(default_factory=list)
    unreadable_rows: list = field(default_factory=list)   # InputError per skipped row of a parquet prediction file
    salvaged_lines: list = field(default_factory=list)   # (line, id): not JSON, scored as malformed
    implementation: str = IMPLEMENTATION
    rules_hash: str = ""
    judge_rows: int = 0                       # undecided rows exported for a judge
    judge_tokens: int | None = 0              # their estimated prompt tokens (None: records not built)
    judge_file: str | None = None
    scoring_errors: int = 0                   # rows whose scoring raised: undecided, rule `scoring_error`
    first_scoring_error: str | None = None
    empty_input: bool = False                 # the predictions had no rows (and gold none to miss)
    duplicates: Duplicates | None = None      # repeated (model, id) predictions, counted
    gold_without_reference: int = 0           # gold rows with no reference time (and no --reference-time)
    no_reference_rows: int = 0                # verdict rows left undecided for that reason
    gold_notes: list = field(default_factory=list)   # what the gold reader reported (a BFCL row no answer meets)
    reader_notes: list = field(default_factory=list)  # what a prediction reader said about a whole file

    def notes(self) -> list:
        """One line per thing a user must know about the input."""
        skipped = self.unknown_ids + len(self.unreadable_lines) + len(self.unreadable_rows)
        lines = [f"every one of the {skipped:,} prediction row(s) was skipped (see below): the verdict file is "
                 "written with none"
                 if skipped else "the predictions have no rows: the verdict file is written with none"] \
            if self.empty_input else []
        lines += self.gold_notes[:_FIRST_IDS_SHOWN] + self.reader_notes
        if len(self.gold_notes) > _FIRST_IDS_SHOWN:
            lines.append(f"... {len(self.gold_notes) - _FIRST_IDS_SHOWN} more gold rows noted or skipped")
        if self.no_reference_rows:
            lines.append(f"warning: {self.no_reference_rows:,} verdict row(s) left undecided (no_reference_time): a "
                         f"relative time on one of the {self.gold_without_reference:,} gold row(s) without "
                         "reference_time; give that column or --reference-time (absolute dates were compared)")
        if self.duplicates is not None and self.duplicates.note():
            lines.append(self.duplicates.note())
        if self.unknown_ids:
            lines.append(f"{self.unknown_ids:,} prediction(s) with an id not in gold skipped "
                         f"(first: {', '.join(self.first_unknown_ids)})")
        if self.missing_predictions:
            lines.append(f"{self.missing_predictions:,} gold id(s) had no prediction for a model: "
                         "scored as empty predictions")
        if self.scoring_errors:
            lines.append(f"{self.scoring_errors:,} row(s) raised an error while being scored: left undecided "
                         f"(malformed, rule {SCORING_ERROR}); first: {self.first_scoring_error}")
        if self.judge_rows:
            if self.judge_tokens is None:
                lines.append(f"{self.judge_rows:,} undecided row(s) would go to a judge "
                             "(--undecided FILE writes them, with their estimated prompt tokens)")
            else:
                lines.append(f"{self.judge_rows:,} undecided row(s) would go to a judge, about {self.judge_tokens:,} "
                             f"prompt tokens (written to {self.judge_file})")
        if self.salvaged_lines:
            shown = ", ".join(f"line {number} (id {identifier})" for number, identifier
                              in self.salvaged_lines[:_FIRST_IDS_SHOWN])
            lines.append(f"{len(self.salvaged_lines):,} prediction line(s) not valid JSON, scored as malformed "
                         f"for their id: {shown}" + (" ..." if len(self.salvaged_lines) > _FIRST_IDS_SHOWN else ""))
        for number, reason in self.unreadable_lines[:_FIRST_IDS_SHOWN]:
            lines.append(f"prediction line {number} unreadable, skipped: {reason}")
        if len(self.unreadable_lines) > _FIRST_IDS_SHOWN:
            lines.append(f"... {len(self.unreadable_lines) - _FIRST_IDS_SHOWN:,} more unreadable lines")
        for error in self.unreadable_rows[:_FIRST_IDS_SHOWN]:
            lines.append(f"{error} (prediction skipped)")
        if len(self.unreadable_rows) > _FIRST_IDS_SHOWN:
            lines.append(f"... {len(self.unreadable_rows) - _FIRST_IDS_SHOWN:,} more skipped prediction rows")
        return lines


def metadata(options: Options) -> dict:
    """Provenance stored in every verdict file: no timestamps, nothing machine-specific (the
    implementation is reported, not stored: both give identical verdicts)."""
    return {"callscore.version": __version__, "callscore.rules_hash": rules_hash(),
            "callscore.options": options.fingerprint()}


@dataclass
class Prepared:
    """A batch's known rows and the gold row of each; for each row the index of its distinct
    prediction; for each distinct prediction its memo index (-1 when new); the new ones' keys,
    first rows and gold rows."""

    batch: pa.RecordBatch
    gold_rows: pa.Array
    spread: np.ndarray
    new_keys: pa.Array | None
    remembered: np.ndarray
    new: np.ndarray
    firsts: pa.RecordBatch
    g_rows: np.ndarray


class VerdictMemo:
    """Verdicts of the distinct (gold row, prediction) keys met so far, so that each is scored
    once per run. Append-only (indices handed out stay valid while batches are in flight) and
    bounded in bytes: once `limit_bytes` of verdicts, keys and undecided calls are held, new
    verdicts are used but not remembered (predictions that rarely repeat gain nothing from it)."""

    def __init__(self, limit_bytes: int):
        self.limit_bytes, self.size, self.bytes = limit_bytes, 0, 0
        self.index = {}                 # key -> memo index, grown in place (an Arrow value set is rehashed per lookup)
        self.tables = []
        self.undecided_calls = {}       # memo index -> calls as written (JSON), for judge records

    def lookup(self, keys: pa.Array) -> np.ndarray:
        return np.fromiter(map(self.index.get, _key_bytes(keys), itertools.repeat(-1)), np.int64, len(keys))

    def merge(self, prepared: "Prepared", distinct: "Distinct"):
        """(batches, rows, undecided): the verdict batches holding every verdict the batch
        needs (`rows_at` reads them), the row of each distinct prediction in them, and the calls
        as written (JSON) of its undecided rows by memo index; the new verdicts are remembered
        while there is room."""
        base = self.size
        where = prepared.remembered.copy()
        where[prepared.new] = base + np.arange(len(prepared.new))
        source = [*self.tables, distinct.verdicts]
        new_calls = {base + row: calls for row, calls in distinct.undecided_calls.items()}
        if prepared.new_keys is not None and self.bytes < self.limit_bytes:
            self.index.update(zip(_key_bytes(prepared.new_keys), range(base, base + len(prepared.new))))
            self.tables.append(distinct.verdicts)
            self.size += len(prepared.new)
            self.undecided_calls.update(new_calls)
            self.bytes += (distinct.verdicts.nbytes + prepared.new_keys.nbytes + _KEY_ENTRY_BYTES * len(prepared.new)
                           + sum(len(calls) for calls in new_calls.values()))
        return source, where, collections.ChainMap(new_calls, self.undecided_calls)


def rows_at(batches: list, positions) -> pa.RecordBatch:
    """The rows at `positions` (counted across the batches, in their order) as one batch, taken
    chunk by chunk: Arrow's take on a table of many chunks concatenates them all first, and
    the memos hold up to 128 MiB of verdicts, so each batch of rows copied all of them."""
    positions = np.asarray(positions, np.int64)
    if not len(positions):
        return pa.RecordBatch.from_pylist([], schema=batches[0].schema)
    offsets = np.cumsum([0] + [batch.num_rows for batch in batches])
    chunk = np.searchsorted(offsets, positions, side="right") - 1
    order = np.argsort(chunk, kind="stable")
    grouped, taken = chunk[order], []
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    for first, last in zip(starts, [*starts[1:], len(order)]):
        index = int(grouped[first])
        taken.append(batches[index].take(pa.array(positions[order[first:last]] - offsets[index])))
    gathered = pa.Table.from_batches(taken).combine_chunks()
    back = np.empty(len(order), np.int64)
    back[order] = np.arange(len(order))
    return gathered.take(pa.array(back)).combine_chunks().to_batches()[0]


def _key_bytes(keys: pa.Array) -> list:
    """Memo keys as Python bytes: made without decoding UTF-8 (a str of Chinese text is decoded
    and widened), hashed and compared as fast, and half the memory of the str."""
    return keys.cast(pa.binary()).to_pylist()


class ReadingMemo:
    """Verdicts by reading: (gold row, parsed calls, and the raw text only when the gold row
    expects mentions in a reply, the one use a verdict makes of it). Outputs that differ only
    around their calls (OpenAI's random call ids, prose, fences, spacing) read the same, so
    each reading is encoded, matched and attributed once per process. Bounded in two
    generations, as the encoder's memos are (scorer.encode.Generations): before it would hold
    more than `limit` verdicts (a slice, at most MAX_SLICE_ROWS, fits) it starts a new one, and
    a reading of the generation before is taken back into it when met again."""

    def __init__(self, limit: int):
        self.limit = limit
        self.older = ({}, [], {})   # the generation before: where, tables, undecided calls
        self.clear()

    def clear(self):
        self.where, self.tables, self.size, self.undecided_calls = {}, [], 0, {}

    def _turn(self):
        self.older = (self.where, self.tables, self.undecided_calls)
        self.clear()

    def positions(self, keys: list) -> tuple[list, list]:
        """(the memo position of each key, None when new; the first row of each new reading),
        room made for the new ones. Each key is hashed once here: a key holds parsed calls,
        nested tuples whose hash Python does not keep."""
        positions = list(map(self.where.get, keys))
        first = {}
        for row, position in enumerate(positions):
            if position is None:
                first.setdefault(keys[row], row)
        if self.size and self.size + len(first) > self.limit:
            self._turn()
            return self.positions(keys)   # every reading is new here now, the memo empty: no second turn
        older_where = self.older[0]
        kept = [key for key in first if key in older_where]
        if kept:
            self._take_back(kept)
            where = self.where
            positions = [where.get(key) if position is None else position for key, position in zip(keys, positions)]
            for key in kept:
                del first[key]
        return positions, list(first.values())

    def _take_back(self, keys: list):
        """Copy the verdicts of these readings of the generation before into this one."""
        where, tables, undecided_calls = self.older
        at = [where[key] for key in keys]
        self.add(keys, rows_at(tables, at),
                 {row: undecided_calls[position] for row, position in enumerate(at) if position in undecided_calls})

    def add(self, keys: list, verdicts: pa.RecordBatch, undecided_calls: dict):
        self.where.update((key, self.size + row) for row, key in enumerate(keys))
        self.undecided_calls.update((self.size + row, calls) for row, calls in undecided_calls.items())
        self.tables.append(verdicts)
        self.size += verdicts.num_rows

    def verdicts_at(self, positions: list) -> "Distinct":
        """The remembered verdicts at these positions, in their order."""
        verdicts = rows_at(self.tables, positions)
        undecided = {row: self.undecided_calls[position] for row, position in enumerate(positions)
                     if position in self.undecided_calls} if self.undecided_calls else {}
        return Distinct(verdicts, undecided)


@dataclass
class Distinct:
    """Verdicts of distinct predictions, and the calls as written (JSON) of those left undecided."""

    verdicts: pa.RecordBatch
    undecided_calls: dict


class Scorer:
    """Scores prediction batches against one gold set."""

    def __init__(self, gold_table: pa.Table, gold_path, options: Options, by=(), predictions_path="predictions",
                 judge_records=False):
        check_rules(os.environ.get("CALLSCORE_RULES"))  # a broken rule file stops the run here
        self.options = options
        self.gold_table = gold_table
        self.timings = timings = Timings() if timings_wanted() else None   # CALLSCORE_TIMINGS=1
        index = timings.timed("gold", GoldIndex) if timings else GoldIndex
        self.gold = index(gold_table, gold_path, options, Codebook(), Codebook(), Codebook())
        self.encoder = PredictionEncoder(self.gold, options)
        self.attributor = Attributor(self.gold, options)
        self.match = match
        if timings:
            self._time_stages(timings)
        self.carried = list(self.gold.carried_types)
        for name in options.keep:
            if name in VERDICTS_FIXED.names or name in self.carried or options.keep.count(name) > 1:
                raise InputError("--keep", "names a verdict column, a carried gold column or itself twice; "
                                 "rename the prediction column", field=name)
        self.gold_ids = gold_table.column("id").combine_chunks().cast(pa.string())  # prediction ids are looked up here
        self.memo = VerdictMemo(MEMO_BYTES)
        self.readings = ReadingMemo(READINGS)
        self.compat = None
        self.gold_notes = json.loads((gold_table.schema.metadata or {}).get(GOLD_NOTES, b"[]"))
        self.judge_records = judge_records   # the memos are empty: they suit either
        if options.bfcl:
            from scorer.compat.verdicts import BfclVerdicts

            try:
                self.compat = BfclVerdicts(gold_table, options.renamed_dots, options.bfcl_version)
            except ValueError as error:   # a version not reproduced (scorer.api takes any string)
                raise InputError("--compat", str(error)) from None
        self.start_run(predictions_path, by, judge_records)

    def _time_stages(self, timings: Timings):
        """This scorer's stages wrapped in stage timers, as attributes of its own objects:
        nothing shared is patched, and a run without timers calls the functions themselves."""
        for owner, name, stage in ((self, "prepare", "prepare"), (self, "score_distinct", "distinct"),
                                   (self.encoder, "parse_column", "parse"), (self.encoder, "_value", "normalize"),
                                   (self.encoder, "encode_parsed", "encode"), (self, "match", "match"),
                                   (self.attributor, "batch", "attribute"), (self, "finish", "finish")):
            setattr(owner, name, timings.timed(stage, getattr(owner, name)))

    def start_run(self, predictions_path, by=(), judge_records=False):
        """Forget the previous run's predictions (a gold set scores several files, scorer.api);
        `judge_records`: build judge-ready records (only --undecided reads them)."""
        self.predictions_path = predictions_path
        if judge_records and not self.judge_records:   # verdicts remembered without the calls judge records read
            self.memo, self.readings = VerdictMemo(MEMO_BYTES), ReadingMemo(READINGS)
        self.judge_records = judge_records
        self.undecided_rows = 0
        self.kept_types = {}       # kept prediction column -> its type, fixed by the first batch
        self.seen = {}             # model -> bool array over gold rows: predicted at least once
        self.result = Result(Tally(tuple(by)), rules_hash=rules_hash(), gold_notes=list(self.gold_notes),
                             gold_without_reference=sum(row.reference_time is None for row in self.gold.rows))
        if not (self.options.keep and self.options.on_duplicate == "keep"):  # a kept sample column declares repeats
            self.result.duplicates = Duplicates(self.options.on_duplicate, len(self.gold.rows), predictions_path)

    def score_prepared(self, prepared: "Prepared", missing=False):
        """(verdicts, undecided records) of a prepared batch, in its row order, in this process."""
        distinct = _joined([self.score_distinct(firsts, g_rows) for firsts, g_rows in _slices(prepared)])
        return self.finish(prepared, distinct, missing)

    def prepare(self, batch: pa.RecordBatch) -> "Prepared":
        """Set aside unknown ids, note which gold rows each model predicted, and key the rows:
        a verdict depends only on the gold row and the prediction, so each distinct (gold row,
        prediction) is scored once — per run, through the memo — and spread back over its rows
        with Arrow kernels."""
        positions = pc.index_in(batch.column("id"), value_set=self.gold_ids)
        known = pc.is_valid(positions)
        unknown = batch.num_rows - pc.sum(known).as_py() if batch.num_rows else 0
        if unknown:
            self.result.unknown_ids += unknown
            room = _FIRST_IDS_SHOWN - len(self.result.first_unknown_ids)
            if room > 0:
                self.result.first_unknown_ids += pc.filter(batch.column("id"), pc.invert(known)).to_pylist()[:room]
            batch = batch.filter(known)
            positions = pc.filter(positions, known)
        if self.result.duplicates is not None:
            drop = self.result.duplicates.dropped(batch, positions, known.to_numpy(zero_copy_only=False))
            if drop is not None and drop.any():
                keep = pa.array(~drop)
                batch, positions = batch.filter(keep), pc.filter(positions, keep)
        self._note_seen(batch.column("model"), positions)
        keys = prediction_keys(batch, positions)
        if self.compat is not None:  # BFCL decodes by model handler, and reads a text beside calls
            output = pc.coalesce(pc.binary_join_element_wise("o", batch.column("output"), ""), pa.scalar("n"))
            keys = pc.binary_join_element_wise(keys, batch.column("model"), output, "\x1c")
        encoded = pc.dictionary_encode(keys)
        spread = encoded.indices.to_numpy(zero_copy_only=False)
        _, first = np.unique(spread, return_index=True)
        remembered = self.memo.lookup(encoded.dictionary)
        new = (remembered < 0).nonzero()[0]
        rows = first[new]
        gold_rows = positions.cast(pa.int64())
        return Prepared(batch, gold_rows, spread, encoded.dictionary.take(pa.array(new)), remembered, new,
                        batch.select(PREDICTIONS.names).take(pa.array(rows)),   # kept columns stay here
                        gold_rows.to_numpy(zero_copy_only=False)[rows])

    def score_distinct(self, firsts: pa.RecordBatch, g_rows) -> "Distinct":
        """Verdicts of distinct predictions (the part worth running in parallel processes). No
        single row can end a run: when scoring raises, the slice is halved until the row that
        raises is alone, and that row gets an undecided malformed verdict naming the exception."""
        try:
            return self._score_distinct(firsts, g_rows)
        except Exception as error:  # noqa: BLE001 -- isolated, named in the row and counted, never silenced
            if firsts.num_rows <= 1:
                return self._scoring_error(firsts, g_rows, error)
            half = firsts.num_rows // 2
            return _joined([self.score_distinct(firsts.slice(0, half), g_rows[:half]),
                            self.score_distinct(firsts.slice(half), g_rows[half:])])

    def _scoring_error(self, firsts, g_rows, error) -> "Distinct":
        reason = " ".join(f"{SCORING_ERROR}: {type(error).__name__}: {error}".split())[:300]
        encoded = self.encoder.encode(g_rows, [None], [None], [reason])
        matched = self.match(self.gold.arrays, encoded.arrays, encoded.pair_keys, encoded.pair_status, False)
        verdicts = self.attributor.batch(g_rows, encoded, matched, [None])
        for name, value in (("decided", False), ("uncertain_reason", reason), ("rule", SCORING_ERROR)):
            index = verdicts.schema.get_field_index(name)
            verdicts = verdicts.set_column(index, name, pa.array([value], verdicts.schema.field(name).type))
        return Distinct(verdicts, {0: "[]"})

    def _score_distinct(self, firsts: pa.RecordBatch, g_rows) -> "Distinct":
        """Each distinct reading (gold row, parsed calls) is encoded, matched and attributed once
        per process (ReadingMemo), then spread over the predictions that read that way. The text
        and the model join the key where they can change the verdict: a reply that must name
        something, and --compat bfcl, which decodes by model handler."""
        outputs = firsts.column("output").to_pylist()
        parsed = self.encoder.parse_column(calls_values(firsts.column("calls")), outputs,
                                           firsts.column("malformed").to_pylist())
        raw = self.compat is not None
        models = firsts.column("model").to_pylist() if raw else [None] * len(outputs)
        keys = [(g_row, reading, output if raw or self.gold.rows[g_row].reply_matters else None, model)
                for g_row, reading, output, model in zip(g_rows.tolist(), parsed, outputs, models)]
        if not keys:   # an empty slice: a verdict table of the right schema
            return Distinct(*self._score_readings(firsts, g_rows, parsed, outputs, []))
        positions, new = self.readings.positions(keys)
        if new:
            self.readings.add([keys[row] for row in new], *self._score_readings(firsts, g_rows, parsed, outputs, new))
            where = self.readings.where
            positions = [where[key] if position is None else position for key, position in zip(keys, positions)]
        return self.readings.verdicts_at(positions)

    def _score_readings(self, firsts, g_rows, parsed, outputs, rows: list):
        """(verdicts, calls as written of the undecided ones by verdict row) of the given rows."""
        g_rows = g_rows[rows]
        encoded = self.encoder.encode_parsed(g_rows, [parsed[row] for row in rows])
        matched = self.match(self.gold.arrays, encoded.arrays, encoded.pair_keys, encoded.pair_status,
                             self.options.temporal_format == "strict")
        verdicts = self.attributor.batch(g_rows, encoded, matched, [outputs[row] for row in rows])
        if self.compat is not None:
            verdicts = self.compat.apply(verdicts, firsts.take(pa.array(rows, pa.int64())), g_rows)
        if not self.judge_records:   # only judge records read the calls as written
            return verdicts, {}
        undecided = (~verdicts.column("decided").to_numpy(zero_copy_only=False)).nonzero()[0]
        undecided_calls = {int(row): canonical_json([{"name": tool, "arguments": {p: raw for p, raw, _c in arguments}}
                                                     for tool, arguments in encoded.calls[row]]) for row in undecided}
        return verdicts, undecided_calls

    def finish(self, prepared: "Prepared", distinct: "Distinct", missing=False):
        """Spread distinct verdicts over the batch's rows, add the columns of each row's
        prediction and gold row, count them, and return them with the judge-ready records of
        the undecided ones (with the calls as the model wrote them), made one by one as they
        are read: a batch of undecided rows never holds all its prompts."""
        source, where, undecided_at = self.memo.merge(prepared, distinct)
        scored = rows_at(source, where[prepared.spread])
        columns = {"model": prepared.batch.column("model"), "id": prepared.batch.column("id"),
                   **dict(zip(scored.column_names, scored.columns)),
                   **self.attributor.gold_columns(prepared.gold_rows, self.carried)}
        names = [*VERDICTS_FIXED.names, *self.carried]
        kept = [self._kept(prepared.batch, name) for name in self.options.keep]
        verdicts = pa.RecordBatch.from_arrays(
            [columns[name] for name in names] + kept,
            schema=pa.schema([*VERDICTS_FIXED, *(pa.field(name, columns[name].type) for name in self.carried),
                              *(pa.field(n, c.type) for n, c in zip(self.options.keep, kept))]))
        if missing:
            flag = verdicts.schema.get_field_index("missing_prediction")
            verdicts = verdicts.set_column(flag, "missing_prediction", pa.array([True] * verdicts.num_rows))
        self.result.tally.add(verdicts)
        self._note_scoring_errors(verdicts)
        if self.result.gold_without_reference:
            self.result.no_reference_rows += pc.sum(pc.equal(verdicts.column("uncertain_reason"),
                                                             NO_REFERENCE_TIME)).as_py() or 0
        rows = pc.indices_nonzero(pc.invert(verdicts.column("decided"))).to_numpy()
        self.undecided_rows += len(rows)
        if not len(rows) or not self.judge_records:
            return verdicts, []
        from scorer.judge import undecided_records

        undecided = verdicts.take(pa.array(rows))
        spread = where[prepared.spread]
        calls = (json.loads(undecided_at[int(spread[row])]) for row in rows)  # integers past 64 bits kept
        return verdicts, undecided_records(pa.Table.from_batches([undecided]), self.gold_table, calls,
                                           kept=self.options.keep)

    def _note_scoring_errors(self, verdicts: pa.RecordBatch):
        failed = pc.equal(verdicts.column("rule"), SCORING_ERROR)
        count = pc.sum(failed).as_py() or 0
        if count:
            self.result.scoring_errors += count
            if not self.result.first_scoring_error:
                self.result.first_scoring_error = pc.filter(verdicts.column("uncertain_reason"), failed)[0].as_py()

    def _kept(self, batch: pa.RecordBatch, name: str) -> pa.Array:
        """A kept prediction column in the type its first batch had: every batch of a verdict
        file has one schema (JSON inputs infer types block by block)."""
        column = batch.column(name)
        wanted = self.kept_types.setdefault(name, column.type)
        if column.type == wanted:
            return column
        if pa.types.is_null(wanted):   # the first batch, already written, had no values to type it
            raise InputError(self.predictions_path, f"kept column is null in the first rows, then {column.type}; "
                             "write it with one type (or null as a typed parquet column)", field=name)
        try:
            return column.cast(wanted)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise InputError(self.predictions_path, f"kept column changes type from {wanted} to {column.type}",
                             field=name) from None

    def _note_seen(self, models, positions):
        encoded = pc.dictionary_encode(models)
        codes = encoded.indices.to_numpy(zero_copy_only=False)
        rows = positions.to_numpy(zero_copy_only=False)
        for code, model in enumerate(encoded.dictionary.to_pylist()):
            seen = self.seen.setdefault(model, np.zeros(len(self.gold.rows), bool))
            seen[rows[codes == code]] = True

    def empty_verdicts(self) -> pa.RecordBatch:
        """A verdict batch of no rows, with the schema a non-empty run would write."""
        empty = {"id": pa.array([], pa.string()), "model": pa.array([], pa.string()),
                 **{name: pa.array([], pa.string()) for name in ("calls", "output", "malformed")},
                 **{name: pa.array([], self.kept_types.get(name, pa.null())) for name in self.options.keep}}
        return self.score_prepared(self.prepare(pa.RecordBatch.from_pydict(empty)))[0]

    def missing_batch(self):
        """(verdicts, undecided records) of empty predictions for every gold id a model did not
        predict, sorted by (model, id); None when every model predicted every id."""
        ids, models, g_rows = [], [], []
        for model in sorted(self.seen):
            absent = (~self.seen[model]).nonzero()[0].tolist()
            for row in sorted(absent, key=lambda r: self.gold.rows[r].id):
                ids.append(self.gold.rows[row].id)
                models.append(model)
                g_rows.append(row)
        if not ids:
            return None
        self.result.missing_predictions = len(ids)
        empty = pa.nulls(len(ids), pa.string())
        batch = pa.RecordBatch.from_pydict({"id": pa.array(ids, pa.string()), "model": pa.array(models, pa.string()),
                                            "calls": empty, "output": empty, "malformed": empty,
                                            **{name: pa.nulls(len(ids), self.kept_types.get(name, pa.null()))
                                               for name in self.options.keep}})
        everything = np.arange(len(ids))
        g_rows = np.array(g_rows, np.int64)
        prepared = Prepared(batch, pa.array(g_rows), everything, None, np.full(len(ids), -1), everything, batch, g_rows)
        return self.score_prepared(prepared, missing=True)


def count_rows(path) -> int | None:
    """Rows in the prediction files when their format says so cheaply (parquet), for progress."""
    total = 0
    for one in prediction_files(path):
        if not str(one).lower().endswith(".parquet"):
            return None
        try:
            total += pq.ParquetFile(one).metadata.num_rows
        except (OSError, pa.ArrowException):
            return None
    return total


def prediction_files(paths) -> list:
    """The prediction files named: a path, several, or a directory standing for every file
    under it that callscore reads (BFCL writes one result file per model and category),
    sorted so that the verdicts come in the same order on every machine."""
    found = []
    for path in [paths] if isinstance(paths, (str, os.PathLike)) else paths:
        path = Path(path)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in load.EXTENSIONS)
            if not inside:
                raise InputError(path, f"a directory with no prediction file ({', '.join(load.EXTENSIONS)})")
            found += inside
        else:
            found.append(path)
    return found


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
    names, arguments = pc.fill_null(flat.field("name"), ""), pc.fill_null(flat.field("arguments"), "\x00")
    # each call led by the lengths of its name and arguments: a separator inside a name or in
    # the arguments cannot make two predictions one key
    joined = pc.binary_join_element_wise(pc.utf8_length(names).cast(pa.string()),
                                         pc.utf8_length(arguments).cast(pa.string()), names, arguments, "\x1f")
    offsets = pc.subtract(calls.offsets, calls.offsets[0])
    return pc.binary_join(pa.ListArray.from_arrays(offsets, joined, mask=calls.is_null()), "\x1e")


def read_gold(path, fmt="auto") -> pa.Table:
    """A gold file in callscore's own format or a benchmark's (BFCL, ACEBench), as a table."""
    load.check_path(path)
    fmt = formats.detect_gold(path) if fmt == "auto" else fmt
    table = load.read_gold_table(path) if fmt == "callscore" else formats.read_gold(path, fmt)
    if table.num_rows == 0:   # every verdict and share would be empty: a wrong file, not a result
        raise InputError(path, "the gold has no rows: nothing to score against")
    return table


def read_prediction_batches(path, fmt, gold_path, batch_size, unreadable, renamed_dots=False, keep=()):
    """Prediction batches with the `keep` columns: callscore's own files are streamed; other
    formats (BFCL results, provider response dumps) are read by their adapter, then cut into
    batches."""
    load.check_path(path)
    fmt = formats.detect_predictions(path) if fmt == "auto" else fmt
    if fmt == "callscore":
        yield from load.iter_prediction_batches(path, batch_size, unreadable, keep)
        return
    table = formats.read_predictions(path, fmt, gold_path=gold_path, unreadable=unreadable,
                                     renamed_dots=renamed_dots)
    for batch in table.to_batches(max_chunksize=batch_size):
        yield load.prediction_batch(path, batch, keep)


def _rare_collections(run):
    """Run with the cyclic collector's first two thresholds raised: scoring allocates many small
    objects (parsed calls, normalized values, memo entries) and makes almost no cycles, so
    collecting every 700 allocations only walks them again (the throughput sample: about 15 %
    of the run), and so does collecting the middle generation every 10 young collections: it
    walks the memos' entries again, and promotes them to full collections, which walk every
    memo (13 % of 200,000 all-distinct rows in one process, 6 % with these thresholds). The
    thresholds are restored afterwards; a first threshold of 0 (collection off) is kept."""
    @functools.wraps(run)
    def with_rare_collections(*args, **kwargs):
        thresholds = gc.get_threshold()
        if thresholds[0]:
            gc.set_threshold(max(thresholds[0], _RUN_GC_THRESHOLD), max(thresholds[1], _RUN_GC_MIDDLE),
                             *thresholds[2:])
        try:
            return run(*args, **kwargs)
        finally:
            gc.set_threshold(*thresholds)
    return with_rare_collections


@_rare_collections
def score_files(predictions_path, gold_path, options: Options = Options(), out=None, by=(),
                undecided=None, progress=None, gold_format="auto", pred_format="auto",
                renamed_dots=False, scorer=None) -> Result:
    """Score a predictions file against a gold file, batch by batch; write verdicts to `out`
    and judge-ready records of the undecided rows to `undecided` if given. `progress(rows)` is
    called as each batch is read. Formats other than callscore's are read by scorer.io adapters.
    `scorer`: a Scorer already holding this gold (scorer.api.Gold), instead of reading gold_path.
    With CALLSCORE_TIMINGS=1 the stage timers (scorer.timings) are printed on stderr at the end."""
    paths = prediction_files(predictions_path)
    if scorer is None:
        scorer = Scorer(read_gold(gold_path, gold_format), gold_path, options, by, ", ".join(map(str, paths)),
                        judge_records=undecided is not None)
    else:  # a gold set that scores several runs (scorer.api.Gold): this run's state only
        scorer.start_run(", ".join(map(str, paths)), by, judge_records=undecided is not None)
    unreadable = load.Unreadable()

    if options.bfcl and not renamed_dots:
        renamed_dots = None  # BFCL's own setting for each model it lists

    def read(unreadable):  # every prediction file in turn, against the gold read once
        return itertools.chain.from_iterable(
            read_prediction_batches(path, pred_format, gold_path, options.batch_size, unreadable, renamed_dots,
                                    options.keep) for path in paths)

    if options.on_duplicate == "last":  # a first pass finds the last prediction of each (model, id)
        scorer.result.duplicates.note_last_rows(read(load.Unreadable()), scorer.gold_ids)
    batches = read(unreadable)
    if progress:
        batches = _counted(batches, progress)
    writer = VerdictWriter(out, metadata(options)) if out else None
    judge = UndecidedWriter(undecided)
    if scorer.timings:
        batches = scorer.timings.iterated("read", batches)
        judge.add = scorer.timings.timed("write", judge.add)
        if writer:
            writer.write = scorer.timings.timed("write", writer.write)
    written = 0
    try:
        for verdicts, records in _scored(scorer, batches, options.jobs):
            written += verdicts.num_rows
            if writer:
                writer.write(verdicts)
            judge.add(records)
        missing = scorer.missing_batch()
        if missing is not None:
            if writer:
                writer.write(missing[0])
            judge.add(missing[1])
        elif not written:
            scorer.result.empty_input = True
            if writer:
                writer.write(scorer.empty_verdicts())  # a valid file with the verdict schema
    except BaseException:
        if writer:
            writer.abort()
        judge.abort()
        raise
    if writer:
        writer.close()
    scorer.result.judge_rows, scorer.result.judge_tokens = judge.close()
    if undecided is None:
        scorer.result.judge_rows, scorer.result.judge_tokens = scorer.undecided_rows, None
    scorer.result.judge_file = str(undecided) if undecided else None
    scorer.result.unreadable_lines = unreadable.lines
    scorer.result.unreadable_rows = unreadable.rows
    scorer.result.salvaged_lines = unreadable.malformed
    scorer.result.reader_notes = unreadable.notes
    if scorer.timings:
        print("\n".join(scorer.timings.report()), file=sys.stderr)
    return scorer.result


def _counted(batches, progress):
    """The batches, each reported to `progress(rows)` as it is read."""
    for batch in batches:
        progress(batch.num_rows)
        yield batch


_WORKER = None  # the Scorer a worker process inherits at fork


def _score_distinct_in_worker(firsts, g_rows):
    """(verdicts, the worker's stage timers for this task, or None)."""
    return _WORKER.score_distinct(firsts, g_rows), _WORKER.timings.take() if _WORKER.timings else None


def _collected(scorer, futures) -> "Distinct":
    """The workers' verdicts of one batch, joined; their stage timers added to this process's."""
    parts = []
    for future in futures:
        distinct, spent = future.get()
        if spent:
            scorer.timings.add(spent)
        parts.append(distinct)
    return _joined(parts)


def _forked_pool(jobs):
    """A pool of forked workers that inherit the default SIGTERM, not a Python handler of the
    caller's (the CLI's): a worker stuck in C code cannot run a Python handler, and a SIGTERM
    that arrives before a worker's initializer has run (a pool terminated at once by an input
    error in the first batch) would be dropped; either way the pool's terminate would wait for
    that worker forever. Off the main thread signals cannot be set; the initializer applies."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL) if main else None
    try:
        return multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_start)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def _worker_start():
    """A forked worker: signals left to the main process, stage timers counting its own work only
    (the main process's figures came with the fork)."""
    _worker_signals()
    if _WORKER is not None and _WORKER.timings:
        _WORKER.timings.take()


def _worker_signals():
    """Workers leave Ctrl-C and SIGTERM to the main process, which stops them (the pool's
    terminate) after removing its partial files; they die by the default SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _scored(scorer, batches, jobs):
    """(verdicts, undecided records) per batch, in input order. Keying, the verdict memo,
    spreading and counting stay in this process (Arrow kernels, which use every core
    already); with jobs > 1, forked workers score the new distinct predictions, the Python
    part, each worker those of its own gold rows (`_shares`), with at most `jobs` batches in
    flight so memory stays bounded."""
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for batch in batches:
            yield scorer.score_prepared(scorer.prepare(batch))
        return
    global _WORKER
    _WORKER, whole = scorer, scorer.readings
    scorer.readings = ReadingMemo(max(READINGS // jobs, MAX_SLICE_ROWS))  # a worker reads only its gold rows
    try:
        with contextlib.ExitStack() as stack:
            # one pool per worker: a task goes to the worker it names, not to whichever is free
            workers = [stack.enter_context(_forked_pool(1)) for _ in range(jobs)]
            pending = collections.deque()
            for batch in batches:
                prepared, shares = _shares(scorer.prepare(batch), jobs)
                pending.append((prepared, [workers[worker].apply_async(_score_distinct_in_worker, (firsts, g_rows))
                                           for worker, firsts, g_rows in shares]))
                if len(pending) >= jobs:
                    prepared, futures = pending.popleft()
                    yield scorer.finish(prepared, _collected(scorer, futures))
            while pending:
                prepared, futures = pending.popleft()
                yield scorer.finish(prepared, _collected(scorer, futures))
    finally:
        _WORKER, scorer.readings = None, whole


MAX_SLICE_ROWS = 8192    # the Python objects of this many distinct predictions are held at once


def _slices(prepared: "Prepared"):
    """(firsts, gold rows) of consecutive slices of a batch's new distinct predictions, none
    so large that its Python objects (parsed calls, normalized values, details) weigh much
    when predictions rarely repeat."""
    for start in range(0, max(prepared.firsts.num_rows, 1), MAX_SLICE_ROWS):
        yield prepared.firsts.slice(start, MAX_SLICE_ROWS), prepared.g_rows[start:start + MAX_SLICE_ROWS]


def _shares(prepared: "Prepared", jobs: int):
    """(prepared, [(worker, firsts, gold rows)]): the batch's new distinct predictions grouped by
    the worker that scores them, and each group cut into slices. A gold row belongs to one worker
    (row mod jobs), so that a reading (gold row, parsed calls) is scored by one process, whose
    ReadingMemo and encoder memos keep serving it: dealt out regardless of gold row, every worker
    learns most readings again (a realistic run spent 1.25x the CPU of one process). When that
    leaves a worker more than 1.5 times its share (few gold rows), the predictions are dealt out evenly.
    The prepared batch is reordered to match (its verdicts come back in that order); the slices are
    taken, not sliced: a pickled Arrow slice carries its parent's whole buffers to the worker."""
    count = len(prepared.new)
    owner = prepared.g_rows % jobs
    if count and 2 * np.bincount(owner, minlength=jobs).max() > 3 * -(-count // jobs):
        owner = np.arange(count) * jobs // count
    order = np.argsort(owner, kind="stable")
    taken = pa.array(order)
    prepared = replace(prepared, new=prepared.new[order], firsts=prepared.firsts.take(taken),
                       g_rows=prepared.g_rows[order],
                       new_keys=None if prepared.new_keys is None else prepared.new_keys.take(taken))
    shares, start = [], 0
    for worker, size in enumerate(np.bincount(owner, minlength=jobs).tolist()):
        for first in range(start, start + size, MAX_SLICE_ROWS):
            rows = np.arange(first, min(first + MAX_SLICE_ROWS, start + size))
            shares.append((worker, prepared.firsts.take(pa.array(rows)), prepared.g_rows[rows]))
        start += size
    return prepared, shares or [(0, prepared.firsts, prepared.g_rows)]   # an empty share: the verdict schema


def _joined(parts: list) -> "Distinct":
    """The slices' verdicts as one, the undecided rows renumbered to match."""
    if len(parts) == 1:
        return parts[0]
    verdicts = pa.Table.from_batches([part.verdicts for part in parts]).combine_chunks().to_batches()[0]
    undecided, offset = {}, 0
    for part in parts:
        undecided.update({offset + row: calls for row, calls in part.undecided_calls.items()})
        offset += part.verdicts.num_rows
    return Distinct(verdicts, undecided)


@_rare_collections
def score_tables(predictions: pa.Table, gold: pa.Table, options: Options = Options(), by=()) -> Result:
    """Score tables already in callscore's schemas (adapters, tests); verdicts kept in memory."""
    scorer = Scorer(gold, "gold", options, by)
    batches = [load.prediction_batch("predictions", batch, options.keep)
               for batch in predictions.to_batches(max_chunksize=options.batch_size)]
    if options.on_duplicate == "last":
        scorer.result.duplicates.note_last_rows(batches, scorer.gold_ids)
    verdicts = [verdict for verdict, _records in _scored(scorer, batches, options.jobs)]
    missing = scorer.missing_batch()
    if missing is not None:
        verdicts.append(missing[0])
    result = scorer.result
    result.verdicts = pa.Table.from_batches(verdicts) if verdicts else None
    return result
