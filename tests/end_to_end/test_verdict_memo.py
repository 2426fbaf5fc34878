"""The verdict memo finds every key remembered by earlier batches, and only those, at the index
its verdict row has across the merged batches; past its byte bound it stops remembering.
`rows_at` reads rows across batches in the order asked."""

from types import SimpleNamespace

import numpy as np
import pyarrow as pa

from scorer.pipeline import VerdictMemo, rows_at


def _batch(memo, keys, verdicts):
    """Look `keys` up, then merge a verdict for each new one, as the pipeline does."""
    keys = pa.array(keys)
    remembered = memo.lookup(keys)
    new = (remembered < 0).nonzero()[0]
    prepared = SimpleNamespace(remembered=remembered, new=new, new_keys=keys.take(pa.array(new)))
    distinct = SimpleNamespace(verdicts=pa.record_batch({"verdict": verdicts}), undecided_calls={})
    batches, where, _undecided = memo.merge(prepared, distinct)
    return remembered, rows_at(batches, where).column("verdict").to_pylist()


def test_keys_from_earlier_batches_are_found_at_their_verdicts():
    memo = VerdictMemo(1 << 20)
    remembered, shown = _batch(memo, ["a", "b"], ["va", "vb"])
    assert remembered.tolist() == [-1, -1] and shown == ["va", "vb"]
    remembered, shown = _batch(memo, ["c", "b", "a"], ["vc"])
    assert remembered.tolist() == [-1, 1, 0] and shown == ["vc", "vb", "va"]
    remembered, shown = _batch(memo, ["c", "d"], ["vd"])
    assert remembered.tolist() == [2, -1] and shown == ["vc", "vd"]
    assert memo.lookup(pa.array([], pa.string())).dtype == np.int64


def test_a_full_memo_uses_new_verdicts_without_remembering_them():
    memo = VerdictMemo(1)
    _batch(memo, ["a"], ["va"])                   # the first batch fills it
    remembered, shown = _batch(memo, ["a", "b"], ["vb"])
    assert remembered.tolist() == [0, -1] and shown == ["va", "vb"]
    assert memo.lookup(pa.array(["b"])).tolist() == [-1]


def test_separators_inside_calls_cannot_make_two_predictions_one_key():
    # found in review: calls were joined with \x1f between name and arguments and \x1e between
    # calls, so a name or arguments holding those characters could share another prediction's key
    from scorer.pipeline import calls_text
    from scorer.tables import CALLS

    calls = pa.array([[{"name": "a\x1fb", "arguments": "c"}], [{"name": "a", "arguments": "b\x1fc"}],
                      [{"name": "a", "arguments": "x\x1eb\x1fy"}], [{"name": "a", "arguments": "x"}, {"name": "b", "arguments": "y"}]],
                     CALLS)
    keys = calls_text(calls).to_pylist()
    assert len(set(keys)) == len(keys)


def test_rows_are_read_across_batches_in_the_order_asked():
    batches = [pa.record_batch({"v": ["a0", "a1"], "n": [0, 1]}), pa.record_batch({"v": ["b0"], "n": [2]}),
               pa.record_batch({"v": ["c0", "c1", "c2"], "n": [3, 4, 5]})]
    rows = rows_at(batches, [5, 0, 2, 0, 3, 1, 5])
    assert rows.column("v").to_pylist() == ["c2", "a0", "b0", "a0", "c0", "a1", "c2"]
    assert rows.column("n").to_pylist() == [5, 0, 2, 0, 3, 1, 5]
    assert rows.schema == batches[0].schema
    assert rows_at(batches, []).num_rows == 0 and rows_at(batches, []).schema == batches[0].schema
