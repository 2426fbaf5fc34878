"""Arrow schemas at the pipeline's boundaries: what loaders must produce and what the
verdict writer emits. Loaders cast to these, so nothing downstream knows the source format.

(`scorer/schema.py` is about *tool* schemas; this module is about *table* schemas.)
"""

import pyarrow as pa

CALL = pa.struct([("name", pa.string()), ("arguments", pa.string())])
CALLS = pa.list_(CALL)

# Gold: one row per benchmark instance. Other columns are carried through untouched.
GOLD_FIXED = pa.schema([
    ("id", pa.string()),
    ("gold_calls", CALLS),            # [] = the request needs no call
    ("reference_time", pa.string()),  # ISO 8601 with offset, or null (then --reference-time)
    ("tools", pa.string()),           # JSON list of OpenAI-style tool schemas, or null
    ("negative_type", pa.string()),   # no_tool | other_tool | beyond_capability | null
])

# Predictions: one row per (model, instance). `calls` wins over `output` when both are set.
# `calls` null and `output` null = an empty prediction; `malformed` holds the reason a
# structured input could not be read (set by loaders and adapters, null otherwise).
PREDICTIONS = pa.schema([
    ("id", pa.string()),
    ("model", pa.string()),
    ("calls", CALLS),
    ("output", pa.string()),
    ("malformed", pa.string()),
])

ERROR = pa.struct([
    ("call", pa.int32()),         # index of the gold call (or predicted call for extras)
    ("argument", pa.string()),
    ("kind", pa.string()),        # a subtype from scorer.vocab, or extra_arg / uncertain
    ("gold", pa.string()),
    ("predicted", pa.string()),
])

VERDICTS_FIXED = pa.schema([
    ("model", pa.string()),
    ("id", pa.string()),
    ("positive", pa.bool_()),           # gold has at least one call
    ("outcome", pa.string()),
    ("subtype", pa.string()),           # null for correct
    ("argument", pa.string()),
    ("tool", pa.string()),
    ("detail", pa.string()),
    ("errors", pa.list_(ERROR)),
    ("normalized_gold", pa.string()),
    ("normalized_pred", pa.string()),
    ("rule", pa.string()),
    ("decided", pa.bool_()),
    ("uncertain_reason", pa.string()),
    ("missing_prediction", pa.bool_()),  # gold id that had no prediction for this model
])
