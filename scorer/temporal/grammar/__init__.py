"""How temporal words combine: a left-to-right scanner over tokens, each token a compiled
regex plus a small pure function that refines the interval read so far.

`明天下午三点` reads as: 明天 -> the day; 下午 -> the afternoon of that day; 三点 -> 15:00 of
that afternoon. A token that needs a coarser context and finds none takes it from the anchor
(the reference time, or the left side of a range: in `3月5日至8日` the 8日 takes the month
of 3月5日). The vocabulary is data in rules/temporal/ and rules/holidays/.

The handlers live by family, each module beside the vocabulary it reads:

- `whole_dates`: 2026-03-10T10:00, 2026-W11, 06/01/2023, 2026年3月10日 written whole
- `years`: 2026年, 九八年, 民国38年, 八十年代, 去年, 年初, 夏天, 三季度
- `days`: 3月, 上个月, 月底, 5号, 11/3, 今天, 明天
- `weeks`: 上上个周五, 下周, 周末, 工作日, 上半周
- `ordinals`: 第N周, 五月第二个星期日, 最后一个周五
- `clock`: 下午, 三点半, 14:30, 七八点, 差十分五点, 现在, 北京时间
- `windows`: 三天后, 1年2个月前, 最近N天, 未来N天, N天内, 上三个月, 今明两天
- `ranges`: 从X到Y, 2001-2003年, 3/10-3/12, X以前, X以来, 截至X
- `festivals`: 春节, 国庆节, 农历三月初三, 腊月廿三
- `traditional`: 子时, 午时三刻
- `english`: tomorrow, next friday, in 3 days, q3 2025

`table` holds the token table (each pattern beside the name of its handler), `matching` finds
the tokens at a position, `scanner` combines them; `units` and `core` are what families share.
"""

from scorer.temporal.grammar.core import GRANULARITY_INDEX, Context, Span, State, Token
from scorer.temporal.grammar.matching import (   # the private three: scorer.temporal's search and its tests
    _all_candidates, _candidates, _leading_candidates, start_chars, token_starts_at,
)
from scorer.temporal.grammar.scanner import scan
from scorer.temporal.grammar.table import lookalikes, tokens
from scorer.temporal.grammar.whole_dates import iso_reading, zh_date_reading

__all__ = [
    "GRANULARITY_INDEX", "Context", "Span", "State", "Token", "iso_reading", "lookalikes", "scan", "start_chars",
    "token_starts_at", "tokens", "zh_date_reading",
]
