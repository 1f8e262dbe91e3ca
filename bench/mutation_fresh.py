"""Re-check chosen mutants of a finished bench/mutation.sh run, each in a fresh Python process.

mutmut switches a mutant on only when its function is called during a test, after the test process has
imported the code. Functions that run at import time (the Tiny Towns pattern tables in patterns.py are
built by ``_placements``, ``_neighbours`` and ``_surrounding`` when the module loads) therefore never run
mutated, and mutmut reports them "survived" whatever the tests check. Here each mutant is written into
a copy of the module's scratch tree (``mutmut apply``) and the module's tests run in a new process, so
the import itself is mutated.

    python bench/mutation_fresh.py tiny-towns-scoring --functions _placements _neighbours _surrounding \
        --tests tests/tiny_towns/test_patterns.py tests/tiny_towns/test_scoring.py

    python bench/mutation_fresh.py trains-board --survivors --tests tests/trains/test_board_edges.py ...

The second form re-checks a run's survivors against tests written after it (the tests are copied from this
tree), which is far cheaper than a whole new run. Writes bench/mutation_results/fresh/<module>.json (or
<module>-<label>.json with --label): the mutants checked, how many were killed, the names of the survivors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "mutation_results" / "fresh"
MUTMUT = str(Path(sys.executable).parent / "mutmut")  # the venv's, even when it is not on PATH


def mutants_of(work: Path, functions: list[str] | None) -> list[str]:
    """The scratch run's mutants whose function is one of ``functions`` (any status), or its survivors."""
    out = subprocess.run(
        [MUTMUT, "results", "--all", "true"], cwd=work, capture_output=True, text=True, check=True
    ).stdout
    rows = [line.strip().split(": ") for line in out.splitlines() if line.strip()]
    if functions is None:
        return sorted(name for name, status in rows if status == "survived")
    names = [name for name, _ in rows]
    wanted = re.compile(r"\.x_(" + "|".join(re.escape(f) for f in functions) + r")__mutmut_\d+$")
    return sorted((n for n in names if wanted.search(n)), key=lambda n: (n.rsplit("_", 1)[0], int(n.rsplit("_", 1)[1])))


def source_of(name: str) -> str:
    """games.tiny_towns.patterns.x__placements__mutmut_3 -> games/tiny_towns/patterns.py (a method's mutant is
    named games.tramways.payment.xǁNeedǁdescribe__mutmut_10)"""
    module = re.split(r"\.x[_ǁ]", name)[0]
    return module.replace(".", "/") + ".py"


def check(work: Path, copy: Path, name: str, tests: list[str]) -> str:
    """Apply one mutant in ``copy`` (restored from ``work`` first) and run the tests in a new process."""
    path = source_of(name)
    shutil.copyfile(work / path, copy / path)
    subprocess.run([MUTMUT, "apply", name], cwd=copy, check=True, capture_output=True)
    if (copy / path).read_text() == (work / path).read_text():
        raise RuntimeError(f"{name}: mutmut apply changed nothing")
    # The tree's own packages must shadow the editable install: python -m puts the cwd first on sys.path.
    env = {**os.environ, "PYTHONPATH": str(copy)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    shutil.copyfile(work / path, copy / path)
    # Exit code 1 = a test failed; 2-4 = the mutated module did not even import or collect (also a kill).
    return "survived" if run.returncode == 0 else "killed"


def recheck_with_mutmut(work: Path, copy: Path, names: list[str], tests: list[str]) -> dict[str, str]:
    """Re-run ``names`` with mutmut itself in a copy of the run's tree whose selection is ``tests``.

    Far cheaper than a process per mutant when the code does not run at import: mutmut forks a warm
    process per mutant. Stopping mutmut early (kill its pid) still leaves the mutants it finished.
    """
    config = (work / "setup.cfg").read_text().splitlines()
    start = config.index("pytest_add_cli_args_test_selection=")
    end = next(i for i in range(start + 1, len(config)) if not config[i].startswith("    "))
    config[start + 1 : end] = [f"    {t}" for t in tests]
    (copy / "setup.cfg").write_text("\n".join(config) + "\n")
    shutil.rmtree(copy / "mutants", ignore_errors=True)
    with open(copy / "run.log", "w") as log:
        subprocess.run(["nice", "-n", "10", MUTMUT, "run", "--max-children", "1", *names], cwd=copy, stdout=log)
    status = dict(
        line.strip().split(": ")
        for line in subprocess.run(
            [MUTMUT, "results", "--all", "true"], cwd=copy, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        if line.strip()
    )
    # "no tests": the new selection does not reach the function, so nothing would catch the mutant.
    return {
        name: {"killed": "killed", "timeout": "timeout", "not checked": "unchecked"}.get(
            status.get(name, ""), "survived"
        )
        for name in names
    }


def write(module: str, label: str, how: str, tests: list[str], names: list[str], results: dict[str, str]) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    checked = {k: v for k, v in results.items() if v != "unchecked"}
    row = {
        "module": module,
        "mutants": how,
        "tests": tests,
        "of": len(names),
        "checked": sorted(checked),
        "killed": sum(v == "killed" for v in checked.values()),
        # Timeouts on a shared, loaded machine are not counted as kills here (mutmut's own count does).
        "timeout": sorted(k for k, v in checked.items() if v == "timeout"),
        "survived": sorted(k for k, v in checked.items() if v != "killed"),
        "unchecked": sorted(set(names) - set(checked)),
    }
    (RESULTS / f"{module}{label}.json").write_text(json.dumps(row, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    pick = parser.add_mutually_exclusive_group(required=True)
    pick.add_argument("--functions", nargs="+", help="every mutant of these functions (import-time code)")
    pick.add_argument("--survivors", action="store_true", help="the run's survivors, against newer tests")
    pick.add_argument("--names", nargs="+", help="these mutants")
    parser.add_argument("--tests", nargs="+", required=True)
    parser.add_argument("--label", default="", help="suffix of the result file (several checks per module)")
    parser.add_argument("--mutmut", action="store_true", help="re-run with mutmut (not for import-time code)")
    args = parser.parse_args()
    scratch = Path(os.environ.get("MUTATION_DIR", "/tmp/conductor-mutation"))
    work, copy = scratch / args.module, scratch / f"{args.module}-fresh{args.label}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(work, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # The tests as they are now in this tree (the scratch copy holds them as they were when the run began).
    repo = Path(__file__).resolve().parent.parent
    for test in args.tests:
        shutil.copyfile(repo / test, copy / test)
    names = args.names or mutants_of(work, None if args.survivors else args.functions)
    how = "named" if args.names else "survivors of the run" if args.survivors else f"all of {args.functions}"
    label = f"-{args.label}" if args.label else ""
    if args.mutmut:
        write(args.module, label, how, args.tests, names, recheck_with_mutmut(work, copy, names, args.tests))
        return
    # A clean run first: a test that fails without any mutant would count every mutant as killed.
    probe = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *args.tests],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        sys.exit(f"the tests fail without a mutant:\n{probe.stdout[-2000:]}")
    results: dict[str, str] = {}
    for name in names:
        results[name] = check(work, copy, name, args.tests)
        write(args.module, label, how, args.tests, names, results)  # after each: a stopped check still counts
        print(f"{len(results)}/{len(names)} {name}: {results[name]}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
