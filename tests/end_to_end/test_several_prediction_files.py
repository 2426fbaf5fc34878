"""Several prediction files (or a directory of them) in one run: scored in one pass against
the gold read once, with the same verdicts as one file holding the same rows."""

import json
from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner

from scorer import pipeline
from scorer.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _split_by_model(tmp_path):
    lines = (EXAMPLES / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    models = list(dict.fromkeys(json.loads(line)["model"] for line in lines))
    paths = []
    for number, model in enumerate(models):
        folder = tmp_path / "results" / f"{number}-{model}"
        folder.mkdir(parents=True)
        path = folder / "predictions.jsonl"
        path.write_text("".join(line + "\n" for line in lines if json.loads(line)["model"] == model), encoding="utf-8")
        paths.append(path)
    return paths


def test_several_files_score_like_one(tmp_path, monkeypatch):
    reads = []
    real_read_gold = pipeline.read_gold
    monkeypatch.setattr(pipeline, "read_gold", lambda *a, **k: reads.append(a) or real_read_gold(*a, **k))
    paths = _split_by_model(tmp_path)
    runner = CliRunner()
    one = runner.invoke(cli, [str(EXAMPLES / "predictions.jsonl"), str(EXAMPLES / "gold.jsonl"), "-q",
                              "-o", str(tmp_path / "one.parquet")])
    several = runner.invoke(cli, [*map(str, paths), str(EXAMPLES / "gold.jsonl"), "-q",
                                  "-o", str(tmp_path / "several.parquet")])
    folder = runner.invoke(cli, [str(tmp_path / "results"), str(EXAMPLES / "gold.jsonl"), "-q",
                                 "-o", str(tmp_path / "folder.parquet")])
    assert (one.exit_code, several.exit_code, folder.exit_code) == (0, 0, 0), several.output + folder.output
    assert len(reads) == 3    # once per run, not once per prediction file

    def key(table):
        return sorted(zip(*(table.column(name).to_pylist() for name in ("model", "id", "outcome", "subtype"))))
    expected = key(pq.read_table(tmp_path / "one.parquet"))
    assert key(pq.read_table(tmp_path / "several.parquet")) == expected
    assert key(pq.read_table(tmp_path / "folder.parquet")) == expected


def test_a_directory_without_prediction_files_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(cli, [str(tmp_path / "empty"), str(EXAMPLES / "gold.jsonl")])
    assert result.exit_code == 2 and "a directory with no prediction file" in result.output
