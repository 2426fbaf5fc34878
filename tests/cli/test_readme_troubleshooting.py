"""README's troubleshooting section names the errors a user can meet: each phrase below is
what the code prints (tested where it is raised) and must stay findable there."""

from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
PHRASES = ["names an input file", "does not exist", "not a readable parquet file", "ids must be strings or integers",
           "not valid tool schemas", "outside the years callscore can resolve", "not valid TOML", "not UTF-8 text",
           "rule file missing", "is not one of", "--renamed-dots", "a second prediction for model",
           "say which with --gold-format", "--fuzzy-high", "repeated (model, id) prediction(s)",
           "unreadable, skipped", "no_reference_time", "capped to the", "the predictions have no rows"]


def test_the_troubleshooting_section_names_every_error():
    section = README.split("## Troubleshooting", 1)[1].split("\n## ", 1)[0]
    assert [phrase for phrase in PHRASES if phrase not in section] == []
