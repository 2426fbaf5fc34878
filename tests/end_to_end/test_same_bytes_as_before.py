"""Speed work must not change a byte: the verdict file, the summary and the judge records of
the example data and of a generated set (tests/data/generated: 3,000 rows of bench/throughput.py's
realistic mode, `--rows 3000 --gold-size 300 --variants 8 --seed 0`, most of them raw text)
hash to what commit ffb98d0 (before the reading memo and the bulk parser) wrote for
the same inputs, with one process or two and any batch size; and judge records are built only
when they are asked for.

When another change alters a verdict ON PURPOSE (a rule, a temporal reading), these hashes
are renewed from the tree that makes that change, for each set's DIR:
    python -m scorer DIR/predictions.parquet DIR/gold.parquet -o v.parquet --summary s.json \
        --undecided u.jsonl -q && sha256sum v.parquet s.json u.jsonl"""

import hashlib
from pathlib import Path

import pytest

from scorer import judge, pipeline, report
from scorer.options import Options

ROOT = Path(__file__).resolve().parents[2]
SETS = {"examples": ROOT / "data" / "examples", "generated": ROOT / "tests" / "data" / "generated"}
# sha256 of (verdicts.parquet, summary.json, undecided.jsonl) as written by ffb98d0
EXPECTED = {
    "examples": ("fdc15f4b98486d379b95d9bdeffb1e0b52b7a8db6e87a576b85349c95799b4cd",
                 "2640f4a39d83f0fc64c9d896ade1e23a4ef1a990e19db8d445499511689de9cd",
                 "47bdcc541e3a7a70b162b0a21f622a6d5634a3a3897fbddf544ea82159d0f390"),
    "generated": ("6da53cd526281cad3ff79ea6d84a7b0b85534e1c1f325898fd43b1e781791dd8",
                  "322f5c493b511fe9f6891476ae6419791eb06e8f430a2424ea3e2203c01ce818",
                  hashlib.sha256(b"").hexdigest()),   # no undecided row in this set
}


def _digests(tmp_path, directory, options):
    out, summary, undecided = tmp_path / "v.parquet", tmp_path / "s.json", tmp_path / "u.jsonl"
    result = pipeline.score_files(directory / "predictions.parquet", directory / "gold.parquet", options,
                                  out=out, undecided=undecided)
    report.write_summary(result.tally.rows(), summary)   # as the CLI writes it
    return tuple(hashlib.sha256(path.read_bytes()).hexdigest() for path in (out, summary, undecided))


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.parametrize("options", [Options(jobs=1), Options(jobs=2, batch_size=700)], ids=["one", "two-small"])
def test_same_bytes_as_before_the_restructuring(tmp_path, name, options):
    assert _digests(tmp_path, SETS[name], options) == EXPECTED[name]


def test_judge_records_are_built_only_when_asked(tmp_path, monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("judge records built without --undecided")

    monkeypatch.setattr(judge, "undecided_records", refuse)
    result = pipeline.score_files(SETS["examples"] / "predictions.parquet", SETS["examples"] / "gold.parquet",
                                  out=tmp_path / "v.parquet")
    assert result.judge_rows == 3 and result.judge_tokens is None
    assert "3 undecided row(s) would go to a judge (--undecided FILE writes them" in result.notes()[-1]
    with pytest.raises(AssertionError, match="without --undecided"):
        pipeline.score_files(SETS["examples"] / "predictions.parquet", SETS["examples"] / "gold.parquet",
                             undecided=tmp_path / "u.jsonl")
