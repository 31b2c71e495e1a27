"""`nimmt bench`: the repository's benchmarks (its `benchmarks/` folder, docs/benchmarks.md),
found and run by name (`solver` for `benchmarks.bench_solver`, `paired` for
`benchmarks.bench_paired`, ...).

The benchmarks are not part of the installed package (they measure it, and some need the
repository's positions): they are found beside the package of an editable install
(`pip install -e .`), else in the current folder. A benchmark's own options are parsed by
its own parser; a bad one is one line (`errors.NimmtError`), as every command's.
"""
import argparse
import ast
import importlib
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

from . import errors

PREFIX = "bench_"


def benchmarks_root() -> Optional[Path]:
    """The folder that holds `benchmarks/`: the repository of an editable install, else the
    current folder (None if neither has it)."""
    for root in (Path(__file__).resolve().parent.parent, Path.cwd()):
        if (root / "benchmarks" / "__init__.py").is_file():
            return root
    return None


def _root() -> Path:
    root = benchmarks_root()
    if root is None:
        raise errors.NimmtError("no benchmarks here: they are in the repository's benchmarks/"
                                " folder, not in an installed package; run nimmt bench in a"
                                " clone of the repository (or after pip install -e .)")
    return root


def _paths() -> List[Path]:
    return sorted((_root() / "benchmarks").glob(f"{PREFIX}*.py"))


def available() -> List[Tuple[str, str]]:
    """Each benchmark's name and the first sentence of its description."""
    found = []
    for path in _paths():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split())
        found.append((path.stem[len(PREFIX):], first.split(". ")[0].rstrip(".")))
    return found


@contextmanager
def _one_line_usage_errors(name: str) -> Iterator[None]:
    """A benchmark's usage error raised as one line (argparse would print its usage too),
    and its help and messages under the name `nimmt bench NAME`."""
    error, argv0 = argparse.ArgumentParser.error, sys.argv[0]

    def refuse(parser, message):
        raise errors.NimmtError(f"bench {name}: {message} (see 'nimmt bench {name} --help')")

    argparse.ArgumentParser.error = refuse
    sys.argv[0] = f"nimmt bench {name}"
    try:
        yield
    finally:
        argparse.ArgumentParser.error = error
        sys.argv[0] = argv0


def run(name: str, argv: Sequence[str]) -> int:
    """Run benchmark `name` with its own arguments; its exit status (0, or 1 where it found
    a fault: the exhaustive reference disagreeing with the search)."""
    names = [path.stem[len(PREFIX):] for path in _paths()]
    if name not in names:
        raise errors.NimmtError(f"no benchmark {errors.quote(name)} (the benchmarks:"
                                f" {', '.join(names)})")
    root = str(_root())
    if root not in sys.path:
        sys.path.insert(0, root)
    module = importlib.import_module(f"benchmarks.{PREFIX}{name}")
    with _one_line_usage_errors(name):
        status = module.main(list(argv))
    return status if isinstance(status, int) else 0
