import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run by default, so that the suite passes or
# fails the same way on every machine (a CI run must not land or fail by chance);
# CALLSCORE_HYPOTHESIS=explore draws new examples each run, to look for new failures.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("CALLSCORE_HYPOTHESIS", "repeatable"))

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
PEERS = ROOT.parent / "shared" / "peers"


@pytest.fixture
def peers_dir():
    """../shared/peers beside the checkout, or a skip when it is absent (a plain clone)."""
    if not PEERS.is_dir():
        pytest.skip("../shared/peers is not beside this checkout")
    return PEERS
