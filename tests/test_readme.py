"""README's Library API examples run as written (in one fresh process, from the repository
root, in order, as a reader pastes them). Skipped: blocks marked `# not run` (Spark), and the
`# needs: ray` block, whose start-up of a second local Ray would double the CI time of
tests/engines, which runs `score_dataset` the same way."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def library_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Library API"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    return [block for block in blocks if not block.startswith(("# not run", "# needs: ray"))]


def test_library_examples_run_and_print_what_they_say():
    blocks = library_blocks()
    assert len(blocks) >= 4
    done = subprocess.run([sys.executable, "-c", "\n".join(blocks)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "[1.0, 0.8333333333333334]" in lines and "[1.0, 0.5]" in lines   # the figures README states
    assert lines[0].startswith("0.78125 477 3")                             # examples: accuracy, rows, missing
