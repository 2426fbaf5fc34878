"""Several predictions for one (model, id) with no sample column declared (--keep) are
usually a mistake (a file concatenated twice, a retried request logged twice) that would
weigh that id double. They are found with arrays over the gold rows, batch by batch, counted
and named; `--on-duplicate` says what to do: keep all (the default, with a note), keep the
first or the last, or stop with an error naming the row."""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorer.errors import InputError

POLICIES = ("keep", "first", "last", "error")
_SHOWN = 5


class Duplicates:
    def __init__(self, policy: str, gold_size: int, path):
        if policy not in POLICIES:
            raise ValueError(f"--on-duplicate must be one of {', '.join(POLICIES)}")
        self.policy, self.gold_size, self.path = policy, gold_size, path
        self.seen = {}          # model -> bool per gold row: predicted in an earlier row
        self.last = None        # model -> index of the last row predicting each gold row ("last")
        self.rows_read = 0
        self.count, self.first = 0, []

    def note_last_rows(self, batches, gold_ids) -> None:
        """A first pass over the predictions (policy "last"): the last row of each (model, id)."""
        self.last, start = {}, 0
        for batch in batches:
            positions = pc.index_in(batch.column("id"), value_set=gold_ids)
            index = np.arange(start, start + batch.num_rows)
            start += batch.num_rows
            known = pc.is_valid(positions).to_numpy(zero_copy_only=False)
            for model, rows, where in _by_model(pc.filter(batch.column("model"), known),
                                                pc.filter(positions, known)):
                last = self.last.setdefault(model, np.full(self.gold_size, -1, np.int64))
                np.maximum.at(last, rows, index[known][where])

    def dropped(self, batch: pa.RecordBatch, positions: pa.Array, known: np.ndarray) -> np.ndarray | None:
        """For the known rows of a batch, a mask of the rows to leave out (None: keep all);
        counts the repeats and raises InputError on one when the policy is "error"."""
        index = np.arange(self.rows_read, self.rows_read + len(known))[known]
        self.rows_read += len(known)
        models = batch.column("model")
        repeat = np.zeros(len(positions), bool)
        drop = np.zeros(len(positions), bool) if self.policy in ("first", "last") else None
        for model, rows, where in _by_model(models, positions):
            seen = self.seen.setdefault(model, np.zeros(self.gold_size, bool))
            _unique, first = np.unique(rows, return_index=True)
            again = np.ones(len(rows), bool)
            again[first] = False
            repeat[where] = again | seen[rows]
            seen[rows] = True
            if self.policy == "last":
                drop[where] = self.last[model][rows] != index[where]
        if not repeat.any():
            return drop
        found = repeat.nonzero()[0]
        if self.policy == "error":
            row = int(found[0])
            raise InputError(self.path, f"a second prediction for model {models[row].as_py()!r}, id "
                             f"{batch.column('id')[row].as_py()!r} (--on-duplicate first|last|keep chooses)",
                             row=int(index[row]) + 1, field="id")
        self.count += len(found)
        for row in found[:_SHOWN - len(self.first)]:
            self.first.append(f"{models[int(row)].as_py()}/{batch.column('id')[int(row)].as_py()}")
        if self.policy == "first":
            drop = repeat
        return drop

    def note(self) -> str | None:
        if not self.count:
            return None
        shown = ", ".join(self.first) + (" ..." if self.count > len(self.first) else "")
        what = {"keep": "all kept and scored (--on-duplicate first|last|error chooses)",
                "first": "the first of each kept, the others left out",
                "last": "the last of each kept, the others left out"}[self.policy]
        return f"{self.count:,} repeated (model, id) prediction(s) (first: {shown}): {what}"


def _by_model(models: pa.Array, positions: pa.Array):
    """(model, gold rows, row indices) per model of a batch."""
    encoded = pc.dictionary_encode(models)
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    rows = positions.to_numpy(zero_copy_only=False).astype(np.int64)
    for code, model in enumerate(encoded.dictionary.to_pylist()):
        where = (codes == code).nonzero()[0]
        if len(where):
            yield model, rows[where], where
