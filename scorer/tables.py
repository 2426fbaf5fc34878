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

# The verdict columns that depend on the gold row and the prediction, which scoring makes
# (scorer.attribute); the prediction's model and id and the gold row's own columns are added
# as the verdicts are spread over the rows (scorer.pipeline), so the memos do not hold them.
VERDICT_ROW_COLUMNS = ("model", "id")
VERDICT_GOLD_COLUMNS = ("positive", "normalized_gold")
VERDICTS_SCORED = pa.schema([field for field in VERDICTS_FIXED
                             if field.name not in VERDICT_ROW_COLUMNS + VERDICT_GOLD_COLUMNS])

# Dialogues (scorer/dialogue.py): gold flattened to one row per user turn, GOLD_FIXED and these.
DIALOGUE_TURN_GOLD = GOLD_FIXED.append(pa.field("dialogue_id", pa.string())).append(
    pa.field("turn", pa.int64())                 # 1, 2, ... within the dialogue
).append(pa.field("dialogue_turns", pa.int64())  # the dialogue's number of turns
).append(pa.field("turns", pa.string()))         # its length bucket, e.g. `06–10`

# Turn verdicts: VERDICTS_FIXED, the carried gold columns (those above among them), then
# `carried_from_turn` (int64): the earlier turn that gave the value of a dropped or changed slot.
# Dialogue verdicts: model, id (the dialogue's), positive, outcome, subtype, argument, tool,
# detail, decided, missing_prediction (the first failing turn's, or `correct`), then these.
DIALOGUE_COLUMNS = pa.schema([
    ("dialogue_turns", pa.int64()),
    ("turns", pa.string()),
    ("turns_correct", pa.int64()),
    ("process_accuracy", pa.float64()),     # turns_correct / dialogue_turns
    ("first_failing_turn", pa.int64()),
    ("carried_from_turn", pa.int64()),      # of the first failing turn
])

# Agent tasks (scorer/agent.py): model, id, positive, outcome, subtype, argument, tool, detail,
# errors (kind `end_state`: a differing attribute, its path in `argument`; `milestone`: one not
# met), decided, missing_prediction, then these.
AGENT_COLUMNS = pa.schema([
    ("end_state_correct", pa.bool_()),
    ("process_accuracy", pa.float64()),
    ("milestones", pa.int64()),           # of the best alternative
    ("milestones_matched", pa.int64()),
    ("alternative", pa.int64()),          # which milestone list was best, from 0
    ("first_missing_milestone", pa.int64()),
    ("category", pa.string()),
    ("language", pa.string()),
])

# BFCL multi-turn (scorer/bfcl_multi_turn.py): appended to the dialogue verdicts.
BFCL_COLUMNS = pa.schema([
    ("bfcl_valid", pa.bool_()),          # BFCL's all-or-nothing verdict of the entry
    ("bfcl_error_type", pa.string()),    # its error type, e.g. multi_turn:instance_state_mismatch
    ("bfcl_error_turn", pa.int64()),     # the turn (from 1) where it failed
])
