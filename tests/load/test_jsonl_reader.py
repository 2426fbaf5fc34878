"""JSON Lines predictions: pyarrow's streaming reader when calls are written as text, the
line-by-line reader otherwise; both give the same batches, and a bad line never loses the rest."""

import json

import pyarrow as pa

from scorer import load


def _write(path, rows, extra=""):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) + extra, encoding="utf-8")
    return path


ROWS = [
    {"id": "a", "model": "m", "calls": [{"name": "f", "arguments": "{\"x\": 1}"}]},
    {"id": "b", "output": "[f(x=2)]", "note": "ignored"},
    {"id": "c", "model": "m", "calls": []},
]


def _read(path, unreadable=None):
    return pa.Table.from_batches(list(load.iter_prediction_batches(path, unreadable=unreadable)))


def test_arrow_reader_and_line_reader_agree(tmp_path, monkeypatch):
    path = _write(tmp_path / "p.jsonl", ROWS)
    streamed = _read(path)
    monkeypatch.setattr(load, "_arrow_json_batches", lambda _path, _keep=(): (_ for _ in ()).throw(load._NotForArrow()))
    by_lines = _read(path)
    assert streamed.column("id").to_pylist() == by_lines.column("id").to_pylist() == ["a", "b", "c"]
    assert streamed.column("model").to_pylist() == ["m", "model", "m"]
    assert streamed.column("calls").to_pylist()[0] == [{"name": "f", "arguments": "{\"x\": 1}"}]
    assert streamed.column("output").to_pylist() == by_lines.column("output").to_pylist()


def test_a_bad_line_falls_back_and_is_reported(tmp_path):
    path = _write(tmp_path / "p.jsonl", ROWS, extra="{not json\n")
    unreadable = load.Unreadable()
    assert _read(path, unreadable).column("id").to_pylist() == ["a", "b", "c"]
    assert [number for number, _reason in unreadable.lines] == [4]


def test_nested_argument_objects_and_integer_ids_use_the_line_reader(tmp_path):
    rows = [{"id": 1, "calls": [{"name": "f", "arguments": {"x": 1}}]}, {"id": 2, "output": ""}]
    table = _read(_write(tmp_path / "p.jsonl", rows))
    assert table.column("id").to_pylist() == ["1", "2"]
    assert json.loads(table.column("calls").to_pylist()[0]) == [{"name": "f", "arguments": {"x": 1}}]
