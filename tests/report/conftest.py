import sys
from pathlib import Path

# The verdict-table builder is shared with tests/aggregate.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "aggregate"))
