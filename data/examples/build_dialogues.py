"""Writes the example multi-turn benchmark in data/examples/ (dialogue_*.jsonl) from the
hand-written scenes below, over the tools of the single-turn example (build.py).

    python data/examples/build_dialogues.py

Deterministic (Random seeded with fixed strings, dates computed from each dialogue's
reference time, never the clock): a rerun reproduces the committed files byte for byte.

A dialogue strings 1-4 scenes together (topic switches), each scene a few user turns whose
later turns lean on earlier ones (slot carry-over: 那空气质量呢 keeps the city and the day),
corrections (改成上海), and turns that need no call (谢谢, or a request beyond the tools).

Each model's prediction of a turn is the gold calls changed by one named perturbation, and
the verdict that perturbation implies under the scoring rules (README: Verdicts, Dialogues
and agents) is written beside it, in dialogue_intended_turns.jsonl; the dialogue verdicts in
dialogue_intended_dialogues.jsonl follow from those by the dialogue rule (correct when every
turn is; otherwise the first failing turn's outcome). dialogue_samples.jsonl holds four more
runs of each model (field `sample`), their dialogue verdicts in dialogue_intended_samples.jsonl.
Nothing here runs the scorer.
"""

import json
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build import CST, MODELS, TOOLS  # noqa: E402

CITIES = ["北京", "上海", "广州", "深圳", "杭州", "成都", "武汉", "西安", "南京", "重庆"]
STOCKS = ["贵州茅台", "腾讯控股", "宁德时代", "比亚迪"]
SONGS = [("平凡之路", "朴树"), ("晴天", "周杰伦"), ("后来", "刘若英"), ("夜空中最亮的星", "逃跑计划")]
RESTAURANTS = ["蜀香园", "江南小馆", "老北京涮肉", "粤海酒家"]
CUISINES = ["川菜", "粤菜", "火锅", "湘菜"]
REFERENCES = [datetime(*t, tzinfo=CST) for t in [
    (2026, 3, 10, 9, 30), (2026, 4, 17, 14, 5), (2026, 5, 31, 20, 10), (2026, 7, 1, 8, 45),
    (2026, 9, 13, 10, 0), (2026, 10, 25, 17, 40), (2026, 12, 30, 11, 15)]]
DAY_WORDS = {0: "今天", 1: "明天", 2: "后天"}


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def day(ref, offset):
    return (ref + timedelta(days=offset)).date().isoformat()


# ------------------------------------------------------------------------------ scenes
# A scene: (rng, reference time) -> turns, each {query, gold_calls[, negative_type]}.

def weather(rng, ref):
    city, other = rng.sample(CITIES, 2)
    offset = rng.choice([0, 1, 2])
    when = day(ref, offset)
    turns = [{"query": f"{DAY_WORDS[offset]}{city}天气怎么样？", "gold_calls": [call("get_weather", city=city, date=when)]},
             {"query": "那空气质量呢？", "gold_calls": [call("get_air_quality", city=city, date=when)]}]
    if rng.random() < 0.5:
        turns.append({"query": f"哦不对，我是说{other}", "gold_calls": [call("get_air_quality", city=other, date=when)]})
    return turns


def travel(rng, ref):
    origin, destination = rng.sample(CITIES, 2)
    offset = rng.choice([1, 2])
    when = day(ref, offset)
    turns = [{"query": f"帮我查一下{DAY_WORDS[offset]}{origin}到{destination}的机票",
              "gold_calls": [call("search_flights", origin=origin, destination=destination, date=when)]},
             {"query": "要商务舱的", "gold_calls": [call("search_flights", origin=origin, destination=destination,
                                                         date=when, cabin_class="business")]}]
    if rng.random() < 0.6:
        turns.append({"query": "算了，还是看看高铁吧",
                      "gold_calls": [call("search_trains", from_station=origin, to_station=destination, date=when)]})
        if rng.random() < 0.5:
            turns.append({"query": "二等座就行", "gold_calls": [call("search_trains", from_station=origin,
                                                                   to_station=destination, date=when, seat_type="二等座")]})
            turns.append({"query": "帮我把这张票退了", "gold_calls": [], "negative_type": "beyond_capability"})
    return turns


def parcel(rng, ref):
    number = f"SF{rng.randrange(10**11, 10**12)}"
    origin, destination = rng.sample(CITIES, 2)
    weight = rng.choice([1, 2, 3, 5])
    turns = [{"query": f"帮我查一下快递{number}到哪了", "gold_calls": [call("track_package", tracking_number=number)]},
             {"query": "是顺丰的", "gold_calls": [call("track_package", tracking_number=number, company="顺丰速运")]}]
    if rng.random() < 0.6:
        turns.append({"query": f"另外从{origin}寄{weight}公斤的东西到{destination}要多少钱？",
                      "gold_calls": [call("estimate_shipping_fee", origin_city=origin, destination_city=destination,
                                          weight_kg=weight)]})
        turns.append({"query": "用顺丰寄呢？", "gold_calls": [call("estimate_shipping_fee", origin_city=origin,
                                                                 destination_city=destination, weight_kg=weight,
                                                                 company="顺丰速运")]})
    return turns


def money(rng, ref):
    stock = rng.choice(STOCKS)
    amount = rng.choice([100, 500, 1000, 2000])
    return [{"query": f"{stock}现在股价多少？", "gold_calls": [call("get_stock_quote", symbol=stock)]},
            {"query": f"{amount}美元能换多少人民币？", "gold_calls": [call("convert_currency", amount=amount,
                                                                    from_currency="USD", to_currency="CNY")]},
            {"query": "那欧元呢？", "gold_calls": [call("convert_currency", amount=amount, from_currency="EUR",
                                                    to_currency="CNY")]}]


def dinner(rng, ref):
    city, cuisine, restaurant = rng.choice(CITIES), rng.choice(CUISINES), rng.choice(RESTAURANTS)
    offset = rng.choice([0, 1, 2])
    when = day(ref, offset)
    people, more = rng.choice([(2, 3), (4, 6), (3, 5)])
    return [{"query": f"{city}有什么好吃的{cuisine}？", "gold_calls": [call("search_restaurants", city=city, cuisine=cuisine)]},
            {"query": "人均一百以内的", "gold_calls": [call("search_restaurants", city=city, cuisine=cuisine,
                                                         max_price_per_person=100)]},
            {"query": f"就订{restaurant}吧，{DAY_WORDS[offset]}晚上七点，{people}个人",
             "gold_calls": [call("book_restaurant", restaurant=restaurant, date=when, time="19:00", party_size=people)]},
            {"query": f"改成{more}个人", "gold_calls": [call("book_restaurant", restaurant=restaurant, date=when,
                                                        time="19:00", party_size=more)]}]


def music(rng, ref):
    (song, artist), (_other_song, other_artist) = rng.sample(SONGS, 2)
    return [{"query": f"放一首{song}", "gold_calls": [call("play_music", song=song)]},
            {"query": f"要{artist}唱的那个版本", "gold_calls": [call("play_music", song=song, artist=artist)]},
            {"query": f"再搜搜{other_artist}的歌", "gold_calls": [call("search_songs", keyword=other_artist)]}]


def news(rng, ref):
    topic = rng.choice(["科技", "体育", "财经"])
    return [{"query": f"今天有什么{topic}新闻？", "gold_calls": [call("get_news", topic=topic, date=day(ref, 0))]},
            {"query": "给我看五条就行", "gold_calls": [call("get_news", topic=topic, date=day(ref, 0), count=5)]}]


SCENES = (weather, travel, parcel, money, dinner, music, news)
SMALL_TALK = [("你好呀", "no_tool"), ("谢谢", "no_tool"), ("帮我订一间酒店", "other_tool")]


def dialogues(count=44, seed="callscore dialogues", scene_counts=(1, 1, 2, 2, 3, 4), max_turns=12):
    """`count` dialogues of 2-`max_turns` turns, each of a number of scenes drawn from `scene_counts`
    (scenes repeat, with new values, when more are drawn than there are kinds)."""
    rng = random.Random(seed)
    result = []
    while len(result) < count:
        ref = rng.choice(REFERENCES)
        turns = []
        if rng.random() < 0.2:
            query, kind = SMALL_TALK[0]
            turns.append({"query": query, "gold_calls": [], "negative_type": kind})
        scenes = rng.choice(scene_counts)
        for scene in rng.sample(SCENES, min(scenes, len(SCENES))) + rng.choices(SCENES, k=max(0, scenes - len(SCENES))):
            turns.extend(scene(rng, ref))
        if rng.random() < 0.5:
            query, kind = rng.choice(SMALL_TALK[1:])
            turns.append({"query": query, "gold_calls": [], "negative_type": kind})
        if not 2 <= len(turns) <= max_turns:
            continue
        used = sorted({c["name"] for t in turns for c in t["gold_calls"]})
        distractors = rng.sample(sorted(set(TOOLS) - set(used)), 2)
        result.append({"id": f"dlg-{len(result) + 1:03d}", "reference_time": ref.isoformat(),
                       "tools": [TOOLS[name] for name in used + distractors], "turns": turns})
    return result


# ------------------------------------------------------------------------------ predictions

def carried(turns, index, argument, value):
    """The earliest earlier turn whose gold gave `argument` this value (the carry-over rule)."""
    for earlier, turn in enumerate(turns[:index], start=1):
        if any(c["arguments"].get(argument) == value for c in turn["gold_calls"]):
            return earlier
    return None


DATES = ("date", "time", "remind_time")
# values a changed slot takes: unrelated to the gold value (no alias, similarity under 60)
REPLACEMENTS = [
    (("city", "origin", "destination", "from_station", "to_station", "origin_city", "destination_city"), CITIES),
    (("song",), [song for song, _ in SONGS]), (("restaurant",), RESTAURANTS), (("symbol",), STOCKS),
    (("cuisine",), CUISINES), (("topic",), ["科技", "体育", "财经"]),
]


def perturb(rng, turns, index, kind):
    """(predicted calls, intended verdict) of turn `index` under perturbation `kind`, or None
    when the perturbation does not apply to this turn."""
    gold = turns[index]["gold_calls"]
    same = [dict(c, arguments=dict(c["arguments"])) for c in gold]
    if kind == "correct":
        return same, ("correct", None, None, "the gold calls")
    if not gold:
        if kind == "call_on_no_call_turn" and index > 0 and turns[index - 1]["gold_calls"]:
            return turns[index - 1]["gold_calls"], ("over_recall", turns[index]["negative_type"], None,
                                                    "repeats the previous call on a turn that needs none")
        return None
    first = same[0]
    arguments = first["arguments"]
    slots = [(name, value) for name, value in arguments.items() if isinstance(value, str) and name not in DATES
             and carried(turns, index, name, value) is not None]
    if kind == "drop_carried_slot" and slots:
        name, value = slots[0]
        del arguments[name]
        return same, ("param_error", "missing_arg", carried(turns, index, name, value), f"drops {name} given earlier")
    if kind == "change_carried_slot" and slots:
        name, value = slots[-1]
        pool = next((values for names, values in REPLACEMENTS if name in names), None)
        if pool is None:
            return None
        arguments[name] = next(v for v in pool if v != value and v not in arguments.values())
        return same, ("param_error", "incorrect_value", carried(turns, index, name, value),
                      f"changes {name} given earlier")
    if kind == "day_off" and "date" in arguments:
        arguments["date"] = (datetime.fromisoformat(arguments["date"]) + timedelta(days=1)).date().isoformat()
        return same, ("param_error", "temporal", None, "date one day late")
    if kind == "no_call":
        return [], ("miss_recall", "no_call", None, "no call")
    return None


PROFILES = {  # model -> perturbations tried in order of preference, with weights
    "zhiyuan-72b": [("correct", 80), ("day_off", 6), ("change_carried_slot", 6), ("call_on_no_call_turn", 4),
                    ("no_call", 4)],
    "tianshu-13b": [("correct", 65), ("drop_carried_slot", 12), ("change_carried_slot", 8), ("day_off", 5),
                    ("call_on_no_call_turn", 5), ("no_call", 5)],
    "qiming-7b": [("correct", 50), ("drop_carried_slot", 20), ("change_carried_slot", 10), ("day_off", 8),
                  ("call_on_no_call_turn", 6), ("no_call", 6)],
}
STOPS_EARLY = {"zhiyuan-72b": 0.0, "tianshu-13b": 0.05, "qiming-7b": 0.15}


def as_output(rng, calls):
    """Some turns are given as raw text, the way models write calls."""
    if not calls:
        return {"output": rng.choice(["好的，还有什么可以帮您？", "不客气！"])}
    if rng.random() < 0.3:
        body = ", ".join(f"{c['name']}({', '.join(f'{k}={v!r}' for k, v in c['arguments'].items())})" for c in calls)
        return {"output": f"[{body}]"}
    return {"calls": calls}


def predictions(gold, sample=None):
    """Each model's predictions of every dialogue and the intended turn verdicts; with `sample`,
    one of several repeated runs (its own random stream, a `sample` field in every row)."""
    rows, turn_verdicts = [], []
    tag = {} if sample is None else {"sample": sample}
    for model in MODELS:
        rng = random.Random(f"callscore dialogue model {model}" + ("" if sample is None else f" sample {sample}"))
        kinds, weights = zip(*PROFILES[model])
        for dialogue in gold:
            turns = dialogue["turns"]
            stop = len(turns)
            if len(turns) > 2 and rng.random() < STOPS_EARLY[model]:
                stop = rng.randrange(1, len(turns))
            predicted = []
            for index in range(len(turns)):
                turn_id = f"{dialogue['id']}#{index + 1}"
                if index >= stop:
                    negative = not turns[index]["gold_calls"]
                    verdict = ("correct", None, None, "turn not predicted, none needed") if negative else (
                        "miss_recall", "no_call", None, "turn not predicted (dialogue stopped early)")
                    missing = True
                else:
                    kind = rng.choices(kinds, weights)[0]
                    outcome = perturb(rng, turns, index, kind) or perturb(rng, turns, index, "correct")
                    calls, verdict = outcome
                    predicted.append(as_output(rng, calls))
                    missing = False
                turn_verdicts.append({"model": model, **tag, "id": turn_id, "dialogue_id": dialogue["id"], "turn": index + 1,
                                      "outcome": verdict[0], "subtype": verdict[1], "carried_from_turn": verdict[2],
                                      "missing_prediction": missing, "why": verdict[3]})
            rows.append({"id": dialogue["id"], "model": model, **tag, "turns": predicted})
    return rows, turn_verdicts


def dialogue_verdicts(turn_verdicts):
    """The dialogue rule applied to the intended turn verdicts."""
    result, groups = [], {}
    for verdict in turn_verdicts:
        groups.setdefault((verdict["model"], verdict.get("sample"), verdict["dialogue_id"]), []).append(verdict)
    for (model, sample, dialogue_id), turns in groups.items():
        failing = next((t for t in turns if t["outcome"] != "correct"), None)
        correct = sum(t["outcome"] == "correct" for t in turns)
        result.append({"model": model, **({} if sample is None else {"sample": sample}), "id": dialogue_id, "outcome": failing["outcome"] if failing else "correct",
                       "subtype": failing["subtype"] if failing else None, "turns_correct": correct,
                       "dialogue_turns": len(turns), "first_failing_turn": failing["turn"] if failing else None,
                       "carried_from_turn": failing["carried_from_turn"] if failing else None})
    return result


SAMPLES = 4  # repeated runs of every model over every dialogue, for pass^k


def write(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")


def main(out: Path = HERE):
    gold = dialogues()
    rows, turn_verdicts = predictions(gold)
    write(out / "dialogue_gold.jsonl", [dict(d, tools=json.dumps(d["tools"], ensure_ascii=False)) for d in gold])
    write(out / "dialogue_predictions.jsonl", rows)
    write(out / "dialogue_intended_turns.jsonl", turn_verdicts)
    write(out / "dialogue_intended_dialogues.jsonl", dialogue_verdicts(turn_verdicts))
    samples = [predictions(gold, sample) for sample in range(SAMPLES)]
    write(out / "dialogue_samples.jsonl", [row for rows, _verdicts in samples for row in rows])
    write(out / "dialogue_intended_samples.jsonl",
          dialogue_verdicts([verdict for _rows, verdicts in samples for verdict in verdicts]))


if __name__ == "__main__":
    main()
