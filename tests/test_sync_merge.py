"""The three-way merge, unified diffs and the readable schema diff, in-process."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from vendorgen.review.specdiff import describe, snapshot_changes
from vendorgen.sources import space
from vendorgen.sync.merge import has_conflict_markers, merge3, split_lines, unified_diff

API = json.loads((Path(__file__).resolve().parent / "data" / "gradio_view_api.json").read_text())

texts = st.text(alphabet="ab\n", max_size=40)
# Lines from a small alphabet, so the three versions share many lines and difflib has choices to make.
line_lists = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "    x = 1\n"]), max_size=25)


@given(texts)
def test_split_lines_joins_back(text: str) -> None:
    assert "".join(split_lines(text)) == text


@given(texts, texts)
def test_one_sided_changes_merge_to_that_side(base: str, other: str) -> None:
    assert merge3(base, other, base).text == other
    assert merge3(base, base, other).text == other
    assert merge3(base, other, other).text == other
    assert merge3(base, other, base).conflicts == 0


@given(line_lists, line_lists, line_lists)
def test_a_merge_is_symmetric_and_clean_only_without_markers(base: list, ours: list, theirs: list) -> None:
    forward = merge3("".join(base), "".join(ours), "".join(theirs))
    backward = merge3("".join(base), "".join(theirs), "".join(ours))
    assert forward.conflicts == backward.conflicts
    assert (forward.conflicts == 0) == (not has_conflict_markers(forward.text))
    if forward.conflicts == 0:
        assert forward.text == backward.text


@given(st.integers(0, 9), st.integers(12, 19), st.text(alphabet="xyz", min_size=1), st.text(alphabet="xyz", min_size=1))
def test_edits_to_distinct_regions_both_survive(ours_at: int, theirs_at: int, ours_new: str, theirs_new: str) -> None:
    base = [f"line {index}\n" for index in range(20)]
    ours, theirs = list(base), list(base)
    ours[ours_at] = f"ours {ours_new}\n"
    theirs[theirs_at:theirs_at] = [f"theirs {theirs_new}\n"]  # an insertion
    expected = list(ours)
    expected[theirs_at:theirs_at] = [f"theirs {theirs_new}\n"]
    merged = merge3("".join(base), "".join(ours), "".join(theirs))
    assert (merged.text, merged.conflicts) == ("".join(expected), 0)


def test_a_conflict_is_written_as_diff3_with_labels() -> None:
    merged = merge3("a\nb\nc\n", "a\nB1\nc\n", "a\nB2\nc\n", ("mine", "base", "new"))
    assert merged.conflicts == 1
    assert merged.text == "a\n<<<<<<< mine\nB1\n||||||| base\nb\n=======\nB2\n>>>>>>> new\nc\n"


def test_the_same_change_on_both_sides_is_not_a_conflict() -> None:
    assert merge3("a\nb\n", "a\nB\n", "a\nB\n").text == "a\nB\n"


def test_a_missing_final_newline_never_glues_a_marker_to_a_line() -> None:
    merged = merge3("a\nb", "a\nours", "a\ntheirs")
    assert merged.text == "a\n<<<<<<< ours\nours\n||||||| base\nb\n=======\ntheirs\n>>>>>>> theirs\n"


def test_unified_diff_applies_with_git_style_paths_and_flags_a_missing_newline() -> None:
    assert unified_diff("same\n", "same\n", "a/f", "b/f") == ""
    assert (
        unified_diff("x\n", "x", "a/f", "b/f")
        == "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n"
    )


# -- the schema diff --------------------------------------------------------------------------------


def build(api_name: str, endpoint: dict | None = None, revision: str = ""):
    return space.build({"kind": "space", "source": "space:http://h/", "src": "http://h/", "name": "tool",
                        "revision": revision, "api_name": api_name,
                        "endpoint": endpoint or API["named_endpoints"][api_name]})  # fmt: skip


def changed_endpoint(api_name: str, change) -> dict:
    endpoint = json.loads(json.dumps(API["named_endpoints"][api_name]))
    change(endpoint)
    return endpoint


def test_identical_specs_have_no_differences() -> None:
    assert describe(build("/describe"), build("/describe")) == []


def test_every_kind_of_parameter_change_is_named() -> None:
    def change(endpoint: dict) -> None:
        age, height, member, color = endpoint["parameters"][1:5]
        age["parameter_default"] = 40  # default
        height["type"] = {"type": "integer"}  # type
        member["label"] = "Club member"  # description
        color["type"]["enum"] = ["red", "green"]  # enum
        endpoint["parameters"][0]["parameter_has_default"] = True  # required -> optional
        endpoint["parameters"][0]["parameter_default"] = "Ada"
        endpoint["parameters"].append({**age, "parameter_name": "shoe_size", "label": "Shoe size"})  # added
        del endpoint["parameters"][3]  # member removed
        endpoint["description"] = "Describe someone."

    lines = describe(build("/describe"), build("/describe", changed_endpoint("/describe", change), revision="abc"))
    assert lines[0] == "~ revision '' -> 'abc'"
    assert lines[1] == "~ tool tool ('/describe'):"
    body = [line.strip() for line in lines[2:]]
    assert "~ description 'Describe a person in one sentence from a few scalar fields.' -> 'Describe someone.'" in body
    assert "- parameter 'member'" in body
    assert "+ parameter 'shoe_size': integer, default 40" in body
    assert "~ parameter 'age': default 30 -> 40" in body
    assert "~ parameter 'height': type 'number' -> 'integer'" in body
    assert "~ parameter 'color': enum ['red', 'green', 'blue'] -> ['red', 'green']" in body
    assert "~ parameter 'name': now optional" in body
    assert "~ parameter 'name': default (none) -> 'Ada'" in body


def test_an_added_or_removed_tool_and_the_return_type_are_named() -> None:
    old, new = build("/describe"), build("/stats")
    removed, added = describe(old, new)
    assert removed == "- tool tool ('/describe')"
    # Several outputs: the description ends with their order, shortened here.
    assert added.startswith("+ tool tool ('/stats'): 'Count the words and characters of a text and return it in upper case.\\n\\nRet")
    stats = build("/stats")
    fewer = build("/stats", changed_endpoint("/stats", lambda endpoint: endpoint["returns"].pop()))
    assert "    ~ return annotation 'tuple[int, int, str]' -> 'tuple[int, int]'" in describe(stats, fewer)


def test_remote_text_is_shown_escaped() -> None:
    hostile = changed_endpoint("/stats", lambda endpoint: endpoint.update(description="ok\x1b[2J\u202egotcha"))
    lines = describe(build("/stats"), build("/stats", hostile))
    assert "'ok\\x1b[2J\\u202egotcha\\n\\nReturns" in lines[1]
    assert all(line.isprintable() for line in lines)


def test_a_change_the_specs_do_not_show_falls_back_to_snapshot_paths() -> None:
    old = {"endpoint": {"returns": [{"label": "Words", "show": True}], "weird key": 1}, "revision": ""}
    new = {"endpoint": {"returns": [{"label": "Words", "show": False}]}, "revision": "", "extra": [1]}
    assert snapshot_changes(old, new) == [
        "~ snapshot.endpoint.returns[0].show: True -> False",
        "- snapshot.endpoint['weird key']",
        "+ snapshot.extra: [1]",
    ]
    many = {"values": list(range(30))}
    assert snapshot_changes(many, {"values": [value + 1 for value in range(30)]})[-1] == "... and 10 more"


def test_a_renamed_parameter_reads_as_its_python_name_change() -> None:
    module = build("/keyword")
    renamed = replace(module, tools=(replace(module.tools[0], inputs=(
        replace(module.tools[0].inputs[0], name="origin"), *module.tools[0].inputs[1:])),))  # fmt: skip
    assert describe(module, renamed) == [
        "~ tool tool ('/keyword'):",
        "    ~ parameter 'from': name 'from_' -> 'origin'",
    ]
