"""Hostile input at bench size: every source kind's property test (tests/hostile/), 10,000 examples each.

Runs the very tests CI runs, with VENDORGEN_HYPOTHESIS_EXAMPLES raised, and counts
what `pipeline.generate` did with each example: a module that passed the gate (and
then the test's exactness checks), or a refusal, grouped by reason. A property that
fails is reported and makes the script exit 1.

    .venv/bin/python bench/bench_hostile.py [--examples N] [--kinds mcp,hub]

Takes a while (about half an hour at 10,000 per kind on 2 quiet cores): black formats every
accepted module.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from _common import row, verdict

TARGET = 10_000
# source kind -> (test module, property test)
TESTS = {
    "space": ("tests.hostile.test_space_hostile", "test_hostile_endpoint_is_refused_or_exact"),
    "mcp": ("tests.hostile.test_mcp_hostile", "test_hostile_tools_list_is_refused_or_exact"),
    "langchain": ("tests.hostile.test_langchain_hostile", "test_hostile_langchain_tools_are_refused_or_exact"),
    "hub": ("tests.hostile.test_hub_hostile", "test_hostile_tool_py_is_refused_or_vendored_verbatim"),
}
ACCEPTED = "accepted"


# Remote text in refusal messages, replaced so that refusals group by cause. In order: targets and
# labels that may hold anything first, then quoted values, then the names of tools, classes, modules.
_VARYING = [
    (r"^langchain:.* should be ", "langchain:… should be "),
    (r"^langchain:.*: (.*) (is not a Python identifier|is a name vendored code may not use)", r"langchain:…: … \2"),
    (r"^tool\.py of .*?(?= line \d| has no | defines |: )", "tool.py"),
    (r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "…"),
    (r"^tool …(?: output schema)?: ", ""),
    (r"^[\w.]+: (?=unexpected|generated|class |use of|import of|missing|module constant|the (vendored|header))", ""),
    (r"\bparameters of \S+|\bclass \w+(?=:)", lambda match: match[0].rsplit(" ", 1)[0] + " …"),
    (r"(?<=^tool\.py: )\w+(?=: | has no)", "…"),
    (r"\b\w+\.(?=(name|description|inputs|output_type|output_schema)\b)", "…."),
    (r"\([^()]*\); pick one|(?<=it defines: ).*", lambda match: "(…); pick one" if match[0][0] == "(" else "…"),
    (r"U\+[0-9A-F]{4,6}( [A-Z0-9 -]+(?= is))?", "U+…"),
    (r"\b\d+\b", "N"),
]


def reason(exc: Exception) -> str:
    """A refusal's message with the remote text taken out."""
    text = str(exc)
    for pattern, replacement in _VARYING:
        text = re.sub(pattern, replacement, text)
    return f"{type(exc).__name__}: {text.removeprefix(': ')[:80]}"


def counting(generate: Callable, outcomes: Counter) -> Callable:
    """`pipeline.generate`, recording what became of each snapshot."""
    from vendorgen.errors import VendorgenError

    def counted(snapshot, workspace):
        try:
            generated = generate(snapshot, workspace)
        except VendorgenError as exc:
            outcomes[reason(exc)] += 1
            raise
        outcomes[ACCEPTED] += 1
        return generated

    return counted


def measure(kind: str, examples: int) -> tuple[Counter, float, str]:
    """In a fresh worker process: one kind's property test at `examples` examples; (outcomes, seconds, failure)."""
    # Before tests/hostile/strategies.py is imported: its settings read this once (its EXAMPLES_ENV).
    os.environ["VENDORGEN_HYPOTHESIS_EXAMPLES"] = str(examples)
    from hypothesis import Phase, settings

    # No example database (nothing written into the checkout); a failure is reported as found, unshrunk.
    settings.register_profile("bench", database=None, phases=[Phase.explicit, Phase.generate])
    settings.load_profile("bench")
    from vendorgen.generate import pipeline

    outcomes: Counter = Counter()
    pipeline.generate = counting(pipeline.generate, outcomes)
    module_name, test_name = TESTS[kind]
    test = getattr(importlib.import_module(module_name), test_name)
    start = time.perf_counter()
    try:
        test()
        failure = ""
    except Exception as exc:  # a property violated: say which, briefly (examples can be megabytes)
        failure = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    return outcomes, time.perf_counter() - start, failure


def report(kind: str, outcomes: Counter, seconds: float, failure: str, examples: int) -> None:
    total = sum(outcomes.values())
    accepted = outcomes[ACCEPTED]
    refusals = Counter({key: count for key, count in outcomes.items() if key != ACCEPTED})
    row(f"{kind}: examples run", f"{total}", f">= {examples}", verdict(total >= examples))
    row(f"{kind}: property held on every example", "yes" if not failure else "NO", "always", verdict(not failure))
    if failure:
        print(f"    {failure}")
    row(f"{kind}: accepted (gate passed, values exact)", f"{accepted} ({accepted / max(total, 1):.0%})")
    row(f"{kind}: clear refusals", f"{total - accepted} ({(total - accepted) / max(total, 1):.0%})")
    for text, count in refusals.most_common():
        print(f"      {count:>6}  {text}")
    row(f"{kind}: examples per second", f"{total / seconds:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=TARGET, help="examples per source kind")
    parser.add_argument("--kinds", default=",".join(TESTS), help="comma-separated source kinds")
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if kind]
    if unknown := [kind for kind in kinds if kind not in TESTS]:
        parser.error(f"unknown kinds {unknown}; choose among {', '.join(TESTS)}")
    failed = False
    print(f"Hostile input: each kind's property test at {args.examples} examples (tests/hostile/),"
          f" {os.cpu_count()} kinds at a time", flush=True)  # fmt: skip
    # One process per kind (nothing leaks between kinds), as many at once as there are cores.
    with ProcessPoolExecutor(max_workers=os.cpu_count(), max_tasks_per_child=1) as pool:
        runs = [pool.submit(measure, kind, args.examples) for kind in kinds]
        for kind, future in zip(kinds, runs):
            outcomes, seconds, failure = future.result()
            report(kind, outcomes, seconds, failure, args.examples)
            failed = failed or bool(failure) or sum(outcomes.values()) < args.examples
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
