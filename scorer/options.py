"""Scoring options: one frozen record, passed down the pipeline and stored in the output
metadata so a verdict file says how it was made."""

from dataclasses import asdict, dataclass

import orjson


@dataclass(frozen=True)
class Options:
    reference_time: str | None = None   # default for gold rows without one
    timezone: str = "Asia/Shanghai"
    temporal_format: str = "lenient"    # strict: a raw relative expression is a temporal error
    range_end: str | None = None        # inclusive | exclusive: the tools' end-of-range convention
    fuzzy_high: float = 90.0            # rapidfuzz ratio at or above: equal
    fuzzy_low: float = 60.0             # below: different; between: undecided
    batch_size: int = 65536
    jobs: int = 1
    keep: tuple = ()                    # prediction columns carried into the verdicts (a sample index)
    policy: tuple = ()                  # temporal policy overrides, NAME=VALUE (--policy)
    compat: str | None = None           # bfcl[@VERSION]: reproduce BFCL's AST checker (scorer/compat/) instead of callscore's rules
    renamed_dots: bool = False          # BFCL sent the models function names with `.` as `_` (--compat bfcl reads them so)
    on_duplicate: str = "keep"          # repeated (model, id) predictions: keep | first | last | error

    @property
    def bfcl(self) -> bool:
        """--compat bfcl, with or without a version."""
        return (self.compat or "").partition("@")[0] == "bfcl"

    @property
    def bfcl_version(self) -> str | None:
        """The BFCL version --compat bfcl@VERSION names (None: the one the gold files tell, else
        the latest reproduced)."""
        return (self.compat or "").partition("@")[2] or None

    def fingerprint(self) -> str:
        """Options that change verdicts, as canonical JSON (jobs and batch size do not)."""
        fields = {k: v for k, v in asdict(self).items() if k not in ("jobs", "batch_size")}
        return orjson.dumps(fields, option=orjson.OPT_SORT_KEYS).decode()
