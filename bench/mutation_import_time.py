"""Mutants of the Tiny Towns pattern tables, which are built at import time, checked in one process.

mutmut switches a mutant on only when its function is called during a test, after the module was imported,
so ``_neighbours``, ``_surrounding`` and ``_placements`` (called only to build ADJACENT, SURROUNDING and
PLACEMENTS when patterns.py loads) never run mutated there. A fresh process per mutant
(bench/mutation_fresh.py) measures them honestly but costs minutes each on a loaded machine. Here each
mutated function is taken from the finished run's mutants/ tree, the table it builds is rebuilt with it
(an exception while building = the import would fail = killed), and the tests of
tests/tiny_towns/test_pattern_edges.py run against that table (any failure = killed).

    python bench/mutation_import_time.py     # after bench/mutation.sh tiny-towns-scoring

Writes bench/mutation_results/fresh/tiny-towns-scoring-import-time.json (the format of mutation_fresh.py).
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.tiny_towns import patterns  # noqa: E402
from games.tiny_towns.content import CATALOGUE  # noqa: E402
from tests.tiny_towns import test_pattern_edges as edges  # noqa: E402

MODULE = "games.tiny_towns.patterns"
# Mutated function -> (the table it builds, how it is built at import).
TABLES: dict[str, tuple[str, Callable[[Callable[..., Any]], Any]]] = {
    "_neighbours": ("ADJACENT", lambda f: tuple(f(i) for i in range(patterns.CELLS))),
    "_surrounding": ("SURROUNDING", lambda f: tuple(f(i) for i in range(patterns.CELLS))),
    "_placements": ("PLACEMENTS", lambda f: {slug: f(e["pattern"]) for slug, e in CATALOGUE.items()}),
}


def mutants(source: Path) -> dict[str, ast.FunctionDef]:
    """mutant name -> its function definition, from mutmut's copy of patterns.py."""
    out: dict[str, ast.FunctionDef] = {}
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            for function in TABLES:
                # x_..._mutmut_orig is mutmut's copy of the original: the harness's own sanity check below.
                if node.name.startswith(f"x_{function}__mutmut_") and not node.name.endswith("_orig"):
                    out[f"{MODULE}.{node.name}"] = node
    return out


def run_tests() -> bool:
    """True when every test of test_pattern_edges passes against the module's current tables."""
    for name, test in vars(edges).items():
        if not name.startswith("test_"):
            continue
        params = inspect.signature(test).parameters
        cases = [{"slug": slug} for slug in sorted(CATALOGUE)] if "slug" in params else [{}]
        for case in cases:
            try:
                test(**case)
            except Exception:  # an assertion, or a table too broken to read: the test fails
                return False
    return True


def check(node: ast.FunctionDef) -> str:
    function = next(f for f in TABLES if node.name.startswith(f"x_{f}__mutmut_"))
    table, build = TABLES[function]
    space = dict(vars(patterns))  # the module's globals: SIZE, orientations, Placement ...
    exec(compile(ast.Module(body=[node], type_ignores=[]), "<mutant>", "exec"), space)
    original = getattr(edges, table)
    try:
        setattr(edges, table, build(space[node.name]))
    except Exception:
        return "killed"  # the import itself would fail
    try:
        return "survived" if run_tests() else "killed"
    finally:
        setattr(edges, table, original)


def main() -> None:
    scratch = Path(os.environ.get("MUTATION_DIR", "/tmp/conductor-mutation")) / "tiny-towns-scoring"
    found = mutants(scratch / "mutants" / "games" / "tiny_towns" / "patterns.py")
    assert run_tests(), "test_pattern_edges fails without a mutant"
    source = scratch / "mutants" / "games" / "tiny_towns" / "patterns.py"
    originals = [
        n for n in ast.parse(source.read_text()).body if isinstance(n, ast.FunctionDef) and n.name.endswith("_orig")
    ]
    assert all(check(n) == "survived" for n in originals if any(f"x_{f}__" in n.name for f in TABLES)), "harness"
    results = {name: check(node) for name, node in sorted(found.items())}
    row = {
        "module": "tiny-towns-scoring",
        "mutants": f"all of {sorted(TABLES)} (import time, checked in one process)",
        "tests": ["tests/tiny_towns/test_pattern_edges.py"],
        "of": len(results),
        "checked": sorted(results),
        "killed": sum(v == "killed" for v in results.values()),
        "timeout": [],
        "survived": sorted(k for k, v in results.items() if v == "survived"),
        "unchecked": [],
    }
    out = ROOT / "bench" / "mutation_results" / "fresh" / "tiny-towns-scoring-import-time.json"
    out.write_text(json.dumps(row, indent=1) + "\n")
    print(json.dumps({k: row[k] for k in ("of", "killed")} | {"survived": row["survived"]}, indent=1))


if __name__ == "__main__":
    main()
