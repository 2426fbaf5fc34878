import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
PEERS = ROOT.parent / "shared" / "peers"


@pytest.fixture
def peers_dir():
    """../shared/peers beside the checkout, or a skip when it is absent (a plain clone)."""
    if not PEERS.is_dir():
        pytest.skip("../shared/peers is not beside this checkout")
    return PEERS
