"""Every expression of tests/data/temporal_zh.jsonl resolves to its expected interval."""

import datetime as dt
import json
from pathlib import Path

import pytest

from scorer.temporal import TemporalPolicy, resolve

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "temporal_zh.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _actual(case):
    policy = TemporalPolicy.from_overrides(case["policy"]) if case.get("policy") else None
    iv = resolve(case["text"], dt.datetime.fromisoformat(case["reference_time"]), policy)
    if iv is None:
        return None
    return {"start": iv.start.isoformat(), "end": iv.end.isoformat(), "granularity": iv.granularity}


def test_the_file_is_large_and_covers_every_family():
    families = {case["family"] for case in CASES}
    assert len(CASES) >= 600
    assert {"relative_day", "week", "month", "absolute", "time", "range", "holiday", "lookalike",
            "en", "policy"} <= families
    assert sum(case["expected"] is None for case in CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[f"{i}:{c['text']}@{c['reference_time'][:10]}" for i, c in enumerate(CASES)])
def test_case(case):
    assert _actual(case) == case["expected"]
