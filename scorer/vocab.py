"""The fixed vocabularies of verdicts: outcomes, subtypes, error kinds, value kinds.

Every stage names these by the constants here, never by ad-hoc strings, so a typo is an
ImportError rather than a silently empty table row.
"""

CORRECT = "correct"
MISS_RECALL = "miss_recall"
PARAM_ERROR = "param_error"
OVER_RECALL = "over_recall"
OUTCOMES = (CORRECT, MISS_RECALL, PARAM_ERROR, OVER_RECALL)

# miss_recall subtypes
NO_CALL = "no_call"
WRONG_TOOL = "wrong_tool"
PARTIAL_CALLS = "partial_calls"
MALFORMED = "malformed"
# param_error subtypes, in precedence order
TEMPORAL = "temporal"
MISSING_ARG = "missing_arg"
INCORRECT_VALUE = "incorrect_value"
# over_recall subtypes: the gold row's negative_type, or these two
EXTRA_CALL = "extra_call"
UNSPECIFIED = "unspecified"
# needs_clarification: the request lacks a required value or gives a wrong one, and the right
# reply asks about it (ACEBench's special_incomplete / special_error_param rows)
NEEDS_CLARIFICATION = "needs_clarification"
NEGATIVE_TYPES = ("no_tool", "other_tool", "beyond_capability", NEEDS_CLARIFICATION)

SUBTYPES = {
    CORRECT: (),
    MISS_RECALL: (NO_CALL, WRONG_TOOL, PARTIAL_CALLS, MALFORMED),
    PARAM_ERROR: (TEMPORAL, MISSING_ARG, INCORRECT_VALUE),
    OVER_RECALL: NEGATIVE_TYPES + (UNSPECIFIED, EXTRA_CALL),
}

# Kinds of a tool parameter that name a time (scorer/schema.py infers kinds).
TEMPORAL_KINDS = ("date", "datetime", "time", "date_range")

# Granularities of a resolved temporal interval, finest first.
GRANULARITIES = ("minute", "hour", "part_of_day", "day", "week", "month", "quarter", "year")

# The uncertain_reason of a row left undecided because a relative time (明天) sits on a gold row
# with no reference_time and no --reference-time was given: the rules cannot resolve it.
NO_REFERENCE_TIME = "no_reference_time"
