"""The library API: `Gold.score_batch` gives the rows the CLI writes, column for column;
`summarize` the figures of the CLI summary; a pickled Gold normalizes gold once, not per batch."""

import json
import pickle
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import scorer
from scorer import Gold, pipeline, summarize
from scorer.cli import cli
from scorer.errors import InputError
from helpers import REFERENCE, call, gold_table

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    """The CLI's verdict file and JSON summary on the example data."""
    where = tmp_path_factory.mktemp("cli")
    result = CliRunner().invoke(cli, [str(PREDICTIONS), str(GOLD), "-o", str(where / "v.parquet"),
                                      "--summary", str(where / "s.json"), "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    return pq.read_table(where / "v.parquet"), json.loads((where / "s.json").read_text())


def _api_verdicts(gold: Gold, batches) -> pa.Table:
    parts = [gold.score_batch(batch) for batch in batches]
    missing = gold.missing_batch()
    return pa.Table.from_batches(parts + ([missing] if missing is not None else []))


def test_top_level_names_are_the_api():
    assert scorer.Gold is Gold and scorer.summarize is summarize
    assert (Path(scorer.__file__).parent / "py.typed").is_file()


@pytest.mark.parametrize("rows_per_batch", [None, 37])
def test_score_batch_equals_the_cli_row_for_row(cli_run, rows_per_batch):
    written, _summary = cli_run
    predictions = pq.read_table(PREDICTIONS)
    batches = [predictions] if rows_per_batch is None else predictions.to_batches(max_chunksize=rows_per_batch)
    got = _api_verdicts(Gold.from_file(GOLD), batches)
    assert got.schema.equals(written.schema.remove_metadata())
    assert got.to_pylist() == written.to_pylist()


def test_missing_batch_from_verdicts_seen_elsewhere(cli_run):
    """A driver that did not score the batches itself (Ray) names the missing rows from the
    (model, id) pairs it got back."""
    written, _summary = cli_run
    scored = Gold.from_file(GOLD).score_batch(pq.read_table(PREDICTIONS))
    missing = Gold.from_file(GOLD).missing_batch(scored)
    expected = written.filter(written.column("missing_prediction"))
    assert missing.num_rows == expected.num_rows == 3
    assert missing.to_pylist() == expected.to_pylist()


def test_summarize_gives_the_cli_summary_figures(cli_run):
    written, summary = cli_run
    figures = summarize(written)
    assert sorted(figures) == sorted({row["model"] for row in summary})
    for row in summary:
        mine = figures[row["model"]][row["group"]]
        for name, value in row.items():
            if name in ("model", "group"):
                continue
            assert mine[name] == (pytest.approx(value, abs=1e-6) if isinstance(value, float) else value), name


def test_summarize_by_a_gold_column(cli_run):
    written, _summary = cli_run
    by_difficulty = summarize(written, by=["difficulty"])["tianshu-13b"]
    assert "all" in by_difficulty and len(by_difficulty) > 1
    assert sum(g["n"] for name, g in by_difficulty.items() if name != "all") == by_difficulty["all"]["n"]


def test_pickled_gold_scores_alike_and_normalizes_gold_once(monkeypatch):
    built = []
    real = pipeline.GoldIndex

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "GoldIndex", counting)
    gold = Gold.from_file(GOLD)
    predictions = pq.read_table(PREDICTIONS)
    expected = gold.score_batch(predictions)
    copy = pickle.loads(pickle.dumps(gold))
    assert len(built) == 2            # the original, and the copy once on arrival
    got = pa.Table.from_batches([copy.score_batch(b) for b in predictions.to_batches(max_chunksize=50)])
    assert len(built) == 2            # ten batches later: still no re-normalization
    assert got.to_pylist() == pa.Table.from_batches([expected]).to_pylist()


def test_from_table_validates_and_scores():
    table = gold_table([{"id": "1", "gold_calls": [call("get_weather", city="北京", date="2026-03-05")]}])
    gold = Gold.from_table(table)
    verdicts = gold.score_batch(pa.table({
        "id": ["1", "1"], "model": ["m", "n"],
        "output": ['get_weather(city="北京市", date="明天")', 'get_weather(city="上海", date="明天")']}))
    assert verdicts.column("outcome").to_pylist() == ["correct", "param_error"]
    assert REFERENCE.startswith("2026-03-04")  # 明天 is 2026-03-05 against the fixture's reference time
    with pytest.raises(InputError, match="duplicate ids"):
        Gold.from_table(pa.concat_tables([table, table]))


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="fuzzy_low"):
        Gold.from_file(GOLD, fuzzy_low=95, fuzzy_high=90)
    with pytest.raises(TypeError):
        Gold.from_file(GOLD, no_such_option=1)


def test_empty_and_unknown_batches_give_empty_verdicts(cli_run):
    written, _summary = cli_run
    gold = Gold.from_file(GOLD)
    predictions = pq.read_table(PREDICTIONS)
    unknown = predictions.set_column(predictions.schema.get_field_index("id"), "id",
                                     pa.array(["no-such-id"] * predictions.num_rows))
    for batch in (predictions.slice(0, 0), pa.concat_tables([unknown.slice(0, 5), unknown.slice(5, 5)])):
        verdicts = gold.score_batch(batch)
        assert verdicts.num_rows == 0 and verdicts.schema.equals(written.schema.remove_metadata())


def test_judge_records_after_a_run_without_them_show_the_calls_as_written(tmp_path):
    """A Gold remembers verdicts across runs, but only a run that writes judge records keeps the
    calls as written they show: such a run after one without them scores afresh."""
    gold = Gold.from_table(gold_table([{"id": "a", "gold_calls": [call("get_weather", city="北京")]}]))
    predicted = [call("get_weather", city="北京", trace="r1")]   # an argument the schema lacks: undecided
    predictions = tmp_path / "p.parquet"
    pq.write_table(pa.Table.from_pylist([{"id": "a", "model": "m", "calls": json.dumps(predicted)}]), predictions)
    gold.score_file(predictions, out=tmp_path / "first.parquet")
    gold.score_file(predictions, out=tmp_path / "second.parquet", undecided=tmp_path / "undecided.jsonl")
    records = [json.loads(line) for line in (tmp_path / "undecided.jsonl").read_text().splitlines()]
    assert [record["predicted_calls"] for record in records] == [predicted]
