"""Plant mutants of a finished bench/mutation.sh run one at a time and run test functions against each, in one process.

mutmut's ``mutants/`` tree routes every call of a mutated function through a trampoline that reads
``MUTANT_UNDER_TEST`` at each call, so importing the code from that tree and switching the variable plants a
mutant without a new process or a copy of the tree. Useful while writing a test against survivors: it tells in
seconds which of them the test kills (then re-measure with bench/mutation_fresh.py --mutmut, which is what
the report counts). Code that runs at import (the Tiny Towns pattern tables) is not reached this way: see
bench/mutation_import_time.py.

    MUTATION_DIR=/tmp/mut-x python bench/mutation_plant.py tiny-towns-scoring tests/tiny_towns/test_feeding_choices.py \
        games.tiny_towns.scoring.x_best_feeding__mutmut_8 ...

Runs every test function of the given files that takes no arguments (parametrised ones are skipped); prints one
line per mutant: KILLED (and the failing tests) or survived. Writes nothing.

With ``--pytest`` the files are run by pytest itself, in one session, once per mutant (each mutant's run
stops at its first failing test): for tests that need fixtures, async tests and parametrised ones (the
storage module's tests open real stores on both backends; give them a running PostgreSQL cluster with
CONDUCTOR_TEST_PG, see tests/pgcluster.py).
The code packages come from the run's ``mutants/`` tree and the tests from this tree, joined in a scratch folder
of symbolic links, so new test files are seen while the mutated code is the run's.

    CONDUCTOR_TEST_PG=<port>:<folder> MUTATION_DIR=/tmp/mut-x python bench/mutation_plant.py storage --pytest \
        tests/core/test_store_seats.py storage.db.xǁStoreǁset_seats__mutmut_3 ...
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def load_tests(files: list[str]) -> list[tuple[str, Callable[[], object]]]:
    tests: list[tuple[str, Callable[[], object]]] = []
    for file in files:
        spec = importlib.util.spec_from_file_location(f"planted_{Path(file).stem}", ROOT / file)
        assert spec is not None and spec.loader is not None, file
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, function in vars(module).items():
            if name.startswith("test_") and callable(function) and not inspect.signature(function).parameters:
                tests.append((name, function))
    return tests


def failing(tests: list[tuple[str, Callable[[], object]]]) -> list[str]:
    out = []
    for name, test in tests:
        try:
            test()
        except Exception:  # an assertion or a crash: the test fails on this mutant
            out.append(name)
    return out


class _EachMutant:
    """A pytest plugin running the collected tests once per mutant in one session: the code is imported
    and the tests collected once, session fixtures (a PostgreSQL database) are kept while the tests pass,
    and a mutant's run stops at its first failing test."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def pytest_runtestloop(self, session: Any) -> bool:
        from _pytest.runner import runtestprotocol

        items = session.items
        for name in ["", *self.names]:  # "" first: no mutant, and every test must pass
            os.environ["MUTANT_UNDER_TEST"] = name
            failed = None
            for i, item in enumerate(items):
                after = items[i + 1] if i + 1 < len(items) else None
                if any(report.failed for report in runtestprotocol(item, log=False, nextitem=after)):
                    failed = item.nodeid
                    if after is not None:  # torn down only as far as the next test needs: all the way
                        session._setupstate.teardown_exact(None)
                    break
            os.environ["MUTANT_UNDER_TEST"] = ""
            if not name:
                assert failed is None, f"the tests fail without a mutant: {failed}"
            else:
                print(f"KILLED {name}  {failed}" if failed else f"survived {name}", file=sys.__stdout__, flush=True)
        return True


def run_pytest(files: list[str], names: list[str], scratch: Path) -> None:
    """Each mutant against ``files`` run by pytest in this process (see the module's docstring)."""
    import pytest

    joined = Path(tempfile.mkdtemp(prefix="mutation-plant-"))
    for entry in (scratch / "mutants").iterdir():  # the mutated packages and what the run copied
        if entry.name not in ("tests", "bench", "setup.cfg", "pyproject.toml"):
            (joined / entry.name).symlink_to(entry)
    for entry in ("tests", "bench", "pyproject.toml"):  # this tree's tests and their configuration
        (joined / entry).symlink_to(ROOT / entry)
    os.chdir(joined)
    sys.path[:0] = [str(joined)]
    arguments = ["-q", "--tb=no", "-p", "no:cacheprovider", "-p", "no:randomly", "--rootdir", str(joined), *files]
    pytest.main(arguments, plugins=[_EachMutant(names)])


def main() -> None:
    module, *rest = sys.argv[1:]
    use_pytest = "--pytest" in rest
    options = [a for a in rest if a.startswith("--") and a != "--pytest"]  # e.g. --deselect=<test id>
    rest = [a for a in rest if not a.startswith("--")]
    files = [a for a in rest if a.endswith(".py") or ".py::" in a]  # test files, or (with --pytest) test ids
    names = [a for a in rest if a not in files]
    scratch = Path(os.environ.get("MUTATION_DIR", "/tmp/conductor-mutation")) / module
    if use_pytest:
        run_pytest([*options, *files], names, scratch)
        return
    # The mutated tree first, so the games package (and everything the tests import from it) comes from there;
    # the tests themselves are read from this tree.
    sys.path[:0] = [str(scratch / "mutants"), str(ROOT)]
    os.environ["MUTANT_UNDER_TEST"] = ""
    tests = load_tests(files)
    assert failing(tests) == [], "the tests fail without a mutant"
    for name in names:
        os.environ["MUTANT_UNDER_TEST"] = name
        failed = failing(tests)
        os.environ["MUTANT_UNDER_TEST"] = ""
        print(f"KILLED {name}  {','.join(failed)}" if failed else f"survived {name}", flush=True)


if __name__ == "__main__":
    main()
