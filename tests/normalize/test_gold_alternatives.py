"""Gold values expand to the concrete values they stand for ($any, $optional); a value with no
choice inside is itself, whatever its size, with object keys in sorted order as every expansion."""

from scorer.encode import expand_alternatives


def test_a_value_without_choices_is_itself_with_sorted_keys():
    value = {"b": [3, {"z": 1, "y": [2, 1]}], "a": "x"}
    [found] = expand_alternatives(value)
    assert found == value and list(found) == ["a", "b"] and list(found["b"][1]) == ["y", "z"]
    many = list(range(5000))
    assert expand_alternatives(many) == [many]


def test_choices_inside_lists_and_objects_still_expand():
    assert expand_alternatives([1, {"$any": [2, 3]}]) == [[1, 2], [1, 3]]
    assert expand_alternatives({"a": {"$optional": 1}, "b": 2}) == [{"b": 2}, {"a": 1, "b": 2}]
    assert expand_alternatives({"k": [{"$any": ["x", "y"]}], "j": 0}) == [{"j": 0, "k": ["x"]}, {"j": 0, "k": ["y"]}]
