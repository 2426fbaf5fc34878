"""Property tests draw repeatable examples unless asked to explore (tests/conftest.py), so that
a run passes or fails the same way on every machine."""

import os

import pytest
from hypothesis import settings


@pytest.mark.skipif(os.environ.get("CALLSCORE_HYPOTHESIS", "repeatable") != "repeatable",
                    reason="another profile was asked for")
def test_examples_are_repeatable_by_default():
    assert settings().derandomize is True
