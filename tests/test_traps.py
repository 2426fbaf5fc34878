"""The trap bench (bench/traps.py): its case files are well formed, and its figures count what
docs/traps.md says they count."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LABELS = {"correct", "incorrect_value", "missing_arg", "undecided"}


def _traps():
    spec = importlib.util.spec_from_file_location("traps", ROOT / "bench" / "traps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_case_has_a_label_a_reason_and_its_own_id():
    classes = _traps().read_cases(ROOT / "bench" / "traps")
    cases = [case for found in classes.values() for case in found]
    assert {"identifiers", "negation", "quantities", "defaults", "near_miss_names"} <= set(classes)
    assert len({case["id"] for case in cases}) == len(cases)
    for case in cases:
        assert case["label"] in LABELS and case["why"] and case["tools"] and case["gold_calls"] and case["calls"], case


def test_figures():
    traps = _traps()
    cases = [{"id": "a", "label": "correct"}, {"id": "b", "label": "incorrect_value"},
             {"id": "c", "label": "undecided"}, {"id": "d", "label": "undecided"}]
    verdicts = {"a": {"outcome": "correct", "subtype": None, "decided": True},
                "b": {"outcome": "correct", "subtype": None, "decided": True},          # decided wrong
                "c": {"outcome": "param_error", "subtype": "incorrect_value", "decided": False},  # right: left
                "d": {"outcome": "correct", "subtype": None, "decided": True}}          # decided, should not be
    assert traps.figures(cases, verdicts) == {"cases": 4, "decided": 0.75, "right_where_decided": 1 / 3, "right": 0.5}
