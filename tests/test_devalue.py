"""The devalue decoder behind Nuxt ``_payload.json`` files.

Reference: devalue's ``parse.js`` (specials -1..-6, the tags Date, Set, Map,
RegExp, Object, BigInt, null) and Nuxt's payload revivers (ShallowReactive,
Reactive, Ref, ShallowRef, EmptyRef, EmptyShallowRef, NuxtError), whose
argument is the index of the reduced value.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lawdiff.sources.nuxt import devalue
from lawdiff.sources.nuxt.devalue import HOLE, INVALID_DATE, UNDEFINED, DevalueError, RegExp, decode, loads

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


# ---------------------------------------------------------------------------
# Special values


def test_special_values_inside_an_array() -> None:
    value = decode([[-1, -3, -4, -5, -6, 1], "x"]).value
    assert value[0] is UNDEFINED
    assert math.isnan(value[1])
    assert value[2] == math.inf
    assert value[3] == -math.inf
    assert value[4] == 0.0 and math.copysign(1.0, value[4]) == -1.0
    assert value[5] == "x"


def test_special_values_inside_an_object() -> None:
    value = decode([{"u": -1, "nan": -3, "inf": -4, "ninf": -5, "nzero": -6}]).value
    assert value["u"] is UNDEFINED
    assert math.isnan(value["nan"])
    assert (value["inf"], value["ninf"]) == (math.inf, -math.inf)
    assert math.copysign(1.0, value["nzero"]) == -1.0


def test_a_hole_keeps_its_place_in_the_array() -> None:
    value = decode([[1, -2, 1], "kaart"]).value
    assert value == ["kaart", HOLE, "kaart"]
    assert value[1] is HOLE


def test_undefined_and_hole_are_falsy_and_read_well() -> None:
    assert not UNDEFINED and not HOLE
    assert (repr(UNDEFINED), repr(HOLE), repr(INVALID_DATE)) == ("undefined", "hole", "Invalid Date")


@pytest.mark.parametrize(
    ("text", "check"),
    [
        ("-1", lambda v: v is UNDEFINED),
        ("-3", math.isnan),
        ("-4", lambda v: v == math.inf),
        ("-5", lambda v: v == -math.inf),
        ("-6", lambda v: v == 0.0 and math.copysign(1.0, v) == -1.0),
    ],
    ids=["undefined", "nan", "infinity", "minus-infinity", "minus-zero"],
)
def test_a_bare_special_number_is_the_whole_payload(text: str, check: Any) -> None:
    assert check(loads(text).value)


@pytest.mark.parametrize("number", [-2, -7, 0, 3])
def test_a_bare_number_that_is_no_standalone_special_value_is_refused(number: int) -> None:
    with pytest.raises(DevalueError) as info:
        decode(number)
    assert info.value.where == "$"
    assert f"special value {number}" in info.value.what


def test_an_unknown_special_value_inside_the_payload_names_its_place() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"data": -9}])
    assert info.value.where == "$[0].data"
    assert "unknown special value -9" in info.value.what


# ---------------------------------------------------------------------------
# Primitives and plain containers


@pytest.mark.parametrize("root", ["hello", 42, 2.5, True, False, None])
def test_a_primitive_root(root: Any) -> None:
    assert decode([root]).value == root


def test_objects_and_arrays_of_indexes() -> None:
    payload = [{"title": 1, "pages": 2, "tags": 3}, "Artikel 45 — Gespeelde kaart", "58-65", [1, 2]]
    assert decode(payload).value == {
        "title": "Artikel 45 — Gespeelde kaart",
        "pages": "58-65",
        "tags": ["Artikel 45 — Gespeelde kaart", "58-65"],
    }


# ---------------------------------------------------------------------------
# Tags


def test_date() -> None:
    value = decode([{"ingangsdatum": 1}, ["Date", "2024-03-01T00:00:00.000Z"]]).value
    assert value["ingangsdatum"] == datetime(2024, 3, 1, tzinfo=UTC)


def test_an_invalid_date_as_devalue_writes_it() -> None:
    # devalue writes ``new Date("nonsense")`` as ["Date", ""].
    assert decode([["Date", ""]]).value is INVALID_DATE


def test_a_date_that_is_not_a_date_is_an_error() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"d": 1}, ["Date", "1 maart"]])
    assert info.value.where == "$[1]"
    assert "invalid date" in info.value.what


def test_set() -> None:
    assert decode([["Set", 1, 2], "73", "89"]).value == ["73", "89"]


def test_map_with_hydrated_keys() -> None:
    value = decode([["Map", 1, 2, 3, 4], "45", "Gespeelde kaart", 46, "Onvolledige benaming"]).value
    assert value == {"45": "Gespeelde kaart", 46: "Onvolledige benaming"}


def test_map_needs_pairs() -> None:
    with pytest.raises(DevalueError) as info:
        decode([["Map", 1], "x"])
    assert info.value.where == "$[0]"
    assert "key/value pairs" in info.value.what


def test_a_map_key_that_cannot_be_a_dictionary_key() -> None:
    with pytest.raises(DevalueError) as info:
        decode([["Map", 1, 2], [2], "x"])
    assert "Map key" in info.value.what


def test_null_prototype_object_has_literal_keys() -> None:
    assert decode([["null", "title", 1, "pages", 2], "Voorwoord", "5"]).value == {"title": "Voorwoord", "pages": "5"}


def test_regexp() -> None:
    assert decode([["RegExp", "^artikel-(\\d+)$", "gi"]]).value == RegExp("^artikel-(\\d+)$", "gi")
    assert decode([["RegExp", "a+"]]).value == RegExp("a+", "")


def test_bigint() -> None:
    assert decode([["BigInt", "123456789012345678901234567890"]]).value == 123456789012345678901234567890
    assert decode([["BigInt", 7]]).value == 7


def test_an_invalid_bigint_is_an_error() -> None:
    with pytest.raises(DevalueError, match="invalid BigInt"):
        decode([["BigInt", "zeven"]])


@pytest.mark.parametrize("boxed", ["kaart", 45, 2.5, True])
def test_object_boxes_a_literal_primitive(boxed: Any) -> None:
    # devalue writes ``new String("kaart")`` as ["Object", "kaart"]: the value
    # itself, not an index (``["Object", 1]`` is the number 1).
    assert decode([["Object", boxed], "not this"]).value == boxed
    assert decode([["Object", 1], "not this"]).value == 1


def test_object_of_a_container_is_refused() -> None:
    with pytest.raises(DevalueError, match='"Object" takes one primitive value'):
        decode([["Object", [1]]])


@pytest.mark.parametrize("tag", ["ShallowReactive", "Reactive", "Ref", "ShallowRef"])
def test_vue_wrappers_decode_to_what_they_wrap(tag: str) -> None:
    assert decode([{"data": 1}, [tag, 2], {"page": 3}, "x"]).value == {"data": {"page": "x"}}


def test_a_wrapper_takes_one_value() -> None:
    with pytest.raises(DevalueError) as info:
        decode([["Ref", 1, 1], "x"])
    assert info.value.where == "$[0]"
    assert "takes one value, found 2" in info.value.what


@pytest.mark.parametrize(
    ("tag", "reduced", "expected"),
    [
        ("EmptyRef", "_", UNDEFINED),
        ("EmptyRef", "null", None),
        ("EmptyRef", "false", False),
        ("EmptyRef", '""', ""),
        ("EmptyRef", "0", 0),
        ("EmptyShallowRef", "0n", 0),
        ("EmptyShallowRef", "_", UNDEFINED),
    ],
)
def test_empty_refs_hold_their_value_as_json_text_in_another_element(tag: str, reduced: str, expected: Any) -> None:
    value = decode([{"pending": 1}, [tag, 2], reduced]).value
    assert value["pending"] == expected
    assert type(value["pending"]) is type(expected)


def test_url_and_nuxt_error() -> None:
    assert decode([["URL", "https://www.bridge.nl/"]]).value == "https://www.bridge.nl/"
    assert decode([["NuxtError", 1], {"statusCode": 2}, 404]).value == {"statusCode": 404}


def test_an_unknown_tag_is_an_error_naming_the_tag_and_the_element() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"x": 1}, ["Island", 2], {}])
    assert info.value.where == "$[1]"
    assert info.value.what == 'unknown devalue tag "Island"'


# ---------------------------------------------------------------------------
# Shared references, cycles, indexes out of range


def test_shared_references_decode_to_the_same_object() -> None:
    decoded = decode([{"a": 1, "b": 1, "c": 2, "d": 2}, {"x": 3}, [3], "v"])
    value = decoded.value
    assert value["a"] is value["b"]
    assert value["c"] is value["d"]
    assert decoded.where(value["a"]) == "$[1]"
    assert decoded.where(value["c"]) == "$[2]"
    assert decoded.where(value) == "$[0]"
    assert decoded.where({}) == "$"


def test_a_shared_set_and_map_are_one_object_too() -> None:
    value = decode([[1, 1, 2, 2], ["Set", 3], ["Map", 3, 3], "k"]).value
    assert value[0] is value[1]
    assert value[2] is value[3]


def test_a_cycle_is_refused_naming_the_reference_that_closes_it() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"self": 0}])
    assert info.value.where == "$[0].self"
    assert info.value.what == "refers back to element 0, which holds it (a cycle)"


def test_an_indirect_cycle_is_refused_naming_the_reference_and_the_element_it_closes_on() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"data": 1}, {"page": 2}, {"parent": 1}])
    assert info.value.where == "$[2].parent"
    assert info.value.what == "refers back to element 1, which holds it (a cycle)"


def test_a_cycle_through_a_wrapper_is_refused() -> None:
    with pytest.raises(DevalueError, match="cycle"):
        decode([["ShallowReactive", 1], {"data": 0}])


def test_an_index_out_of_range_is_refused_naming_its_place() -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"data": 1}, {"body": 7}])
    assert info.value.where == "$[1].body"
    assert info.value.what == "index 7 points past the end of the payload (2 elements)"


def test_an_index_out_of_range_in_an_array() -> None:
    with pytest.raises(DevalueError) as info:
        decode([[1, 2], "x"])
    assert info.value.where == "$[0][1]"


@pytest.mark.parametrize("ref", ["1", 1.5, True, None, [1], {"a": 1}])
def test_a_reference_that_is_not_an_index_is_refused(ref: Any) -> None:
    with pytest.raises(DevalueError) as info:
        decode([{"data": ref}, "x"])
    assert info.value.where == "$[0].data"
    assert "expected an element index" in info.value.what


@pytest.mark.parametrize("parsed", [[], {}, "text", True, None])
def test_a_payload_must_be_a_non_empty_array(parsed: Any) -> None:
    with pytest.raises(DevalueError) as info:
        decode(parsed)
    assert info.value.where == "$"


@pytest.mark.parametrize(
    ("text", "where"),
    [("", "line 1 column 1"), ('[{"data":1},{"a":', "line 1 column 18"), ("[1,\n{a:2}]", "line 2 column 2")],
    ids=["empty", "truncated", "invalid"],
)
def test_text_that_is_not_json(text: str, where: str) -> None:
    with pytest.raises(DevalueError) as info:
        loads(text)
    assert info.value.where == where
    assert info.value.what.startswith("not valid JSON (")
    assert str(info.value) == f"{where}: {info.value.what}"


# ---------------------------------------------------------------------------
# Round trip through a tiny encoder, and the seeds


def encode(root: Any) -> str:
    """A tiny devalue encoder: objects and arrays by identity, specials as negative indexes."""
    out: list[Any] = []
    seen: dict[int, int] = {}

    def special(v: Any) -> int | None:
        if v is UNDEFINED:
            return -1
        if isinstance(v, float) and math.isnan(v):
            return -3
        if v == math.inf:
            return -4
        if v == -math.inf:
            return -5
        if isinstance(v, float) and v == 0.0 and math.copysign(1.0, v) < 0:
            return -6
        return None

    def add(v: Any) -> int:
        code = special(v)
        if code is not None:
            return code
        if id(v) in seen and isinstance(v, (dict, list)):
            return seen[id(v)]
        index = len(out)
        out.append(None)
        if isinstance(v, dict):
            seen[id(v)] = index
            out[index] = {k: add(x) for k, x in v.items()}
        elif isinstance(v, list):
            seen[id(v)] = index
            out[index] = [add(x) for x in v]
        else:
            out[index] = v
        return index

    top = add(root)
    return json.dumps(top if top < 0 else out)


SHARED = {"title": "Artikel 45"}
ROUND_TRIP = [
    "kaart",
    0,
    -3,
    {"data": {"page": {"title": "Artikel 45 — Gespeelde kaart", "chapter": 6, "part": None, "draft": False}}},
    [["p", {}, "Elke speler"], ["h2", {"id": "a"}, "A. Spelen van een kaart"]],
    {"one": SHARED, "two": SHARED, "list": [SHARED, SHARED]},
    {"u": UNDEFINED, "inf": math.inf, "ninf": -math.inf, "nzero": -0.0},
    UNDEFINED,
    -math.inf,
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=[f"value{i}" for i in range(len(ROUND_TRIP))])
def test_round_trip(value: Any) -> None:
    decoded = loads(encode(value)).value
    assert decoded == value or (decoded is value)
    if isinstance(value, dict) and "one" in value:
        assert decoded["one"] is decoded["two"] is decoded["list"][0] is decoded["list"][1]


@pytest.mark.parametrize("name", ["nuxt-artikel-45.payload.json", "nuxt-artikel-6.payload.json"])
def test_the_seed_payloads_decode(name: str) -> None:
    decoded = devalue.loads((CORPUS / "2017" / name).read_text(encoding="utf-8"))
    data = decoded.value["data"]
    record = next(v for v in data.values() if isinstance(v, dict) and "body" in v)
    assert decoded.where(record) == "$[477]"
    assert record["body"]["type"] == "minimark"
    assert isinstance(decoded.value["prerenderedAt"], int)
