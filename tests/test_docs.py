"""The documents cannot drift: every example of the documents of DOCUMENTS (README.md and
pages of docs/) is run.

- A ```console block holds commands (`$ ` lines, run by bash from the repository root, with
  `nimmt` the command of this source tree) each followed by the output it prints, stdout
  and stderr together. An expected line ending in `# timing` stands for any one line (a
  time, which no run repeats). Trailing spaces do not count. A decimal number may differ
  from the shown one by a unit of its last digit or by 1e-5 of its size (at least 1e-5),
  whichever is more: the network bots' sums run in the linear algebra library, whose
  kernels (picked by the CPU) round differently from machine to machine; everything else
  on the line must be the same.
- A ```python block with `>>> ` prompts is a doctest (ELLIPSIS and NORMALIZE_WHITESPACE on).
- Other blocks (```sh, ```json, ```text) are shown, not run.

`python tests/test_docs.py --update FILE` rewrites the outputs of FILE's console blocks
from a fresh run (then read the diff: it is the change the documents see).
"""
import atexit
import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import List, Optional, Tuple

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md", "docs/formats.md", "docs/report.md", "docs/commands.md",
             "docs/python-api.md"]
TIMING = "# timing"
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Example:
    """One command of a console block and the output the document shows for it."""
    path: str
    line: int                  # 1-based line of the command in the document
    command: str
    expected: List[str]
    first_output_line: int     # 0-based index in the document's lines
    end_output_line: int
    block: int = 0             # 0-based index of its block's opening fence: the commands of
                               # a block run in order, one after the other (files they share)


def fenced(path: str) -> List[Tuple[Optional[str], str]]:
    """Each line of a document with the language of the block it is in (None: outside a
    block, and the fence lines themselves)."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    out: List[Tuple[Optional[str], str]] = []
    kind: Optional[str] = None
    for line in lines:
        fence = FENCE.match(line)
        if fence:
            kind = None if kind is not None else fence.group(1)
            out.append((None, line))
        else:
            out.append((kind, line))
    return out


def console_examples(path: str) -> List[Example]:
    examples: List[Example] = []
    block = 0
    for i, (kind, line) in enumerate(fenced(path)):
        if kind is None and FENCE.match(line):
            block = i
        if kind != "console":
            continue
        if line.startswith("$ "):
            examples.append(Example(path, i + 1, line[2:], [], i + 1, i + 1, block))
        elif examples and examples[-1].end_output_line == i:
            examples[-1].expected.append(line)
            examples[-1].end_output_line = i + 1
    for example in examples:     # a continued command (`\` at the end) spans several lines
        while example.expected and example.command.endswith("\\"):
            example.command = example.command[:-1] + "\n" + example.expected.pop(0)
            example.first_output_line += 1
    return examples


def shim_dir() -> str:
    """A folder with a `nimmt` that runs this source tree's command line (removed when the
    process ends)."""
    folder = tempfile.mkdtemp(prefix="nimmt-docs-")
    atexit.register(shutil.rmtree, folder, True)
    shim = os.path.join(folder, "nimmt")
    with open(shim, "w") as out:
        out.write(f'#!/bin/sh\nexec "{sys.executable}" -m solver "$@"\n')
    os.chmod(shim, 0o755)
    return folder


SHIM = None


def run(command: str) -> List[str]:
    global SHIM
    SHIM = SHIM or shim_dir()
    env = dict(os.environ, PATH=SHIM + os.pathsep + os.environ.get("PATH", ""),
               PYTHONPATH=ROOT, COLUMNS="100", LC_ALL="C.UTF-8")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []


DECIMAL = re.compile(r"-?\d+\.(\d+)")


def same_line(want: str, got: str) -> bool:
    """Equal, or equal but for decimals within the tolerance of the module's docstring."""
    if want == got:
        return True
    if DECIMAL.sub("#", want) != DECIMAL.sub("#", got):
        return False
    for shown, printed in zip(DECIMAL.finditer(want), DECIMAL.finditer(got)):
        places = max(len(shown.group(1)), len(printed.group(1)))
        a, b = float(shown.group(0)), float(printed.group(0))
        if abs(a - b) > max(1.01 * 10.0 ** -places, 1e-5 * max(1.0, abs(a))):
            return False
    return True


def differences(expected: List[str], actual: List[str]) -> List[str]:
    """What differs between the shown and the printed lines (empty: they agree)."""
    problems = []
    if len(expected) != len(actual):
        problems.append(f"{len(expected)} lines shown, {len(actual)} printed")
    for k, (want, got) in enumerate(zip(expected, actual)):
        if want.rstrip().endswith(TIMING):
            continue
        if not same_line(want.rstrip(), got.rstrip()):
            problems.append(f"line {k + 1}: shown {want.rstrip()!r}, printed {got.rstrip()!r}")
    return problems


EXAMPLES = [e for path in DOCUMENTS for e in console_examples(path)]


BLOCKS: List[List[Example]] = []
for _example in EXAMPLES:
    if BLOCKS and (BLOCKS[-1][0].path, BLOCKS[-1][0].block) == (_example.path, _example.block):
        BLOCKS[-1].append(_example)
    else:
        BLOCKS.append([_example])


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b[0].path}:{b[0].line}" for b in BLOCKS])
def test_console_block(block: List[Example]):
    """A block's commands in order, in one test: a later one may read what an earlier one
    wrote (tests running in parallel would otherwise race on those files)."""
    for example in block:
        problems = differences(example.expected, run(example.command))
        assert not problems, (f"{example.path}:{example.line} `{example.command}`\n"
                              + "\n".join(problems))


def python_text(path: str) -> str:
    """The document with everything but its ```python blocks blanked (line numbers kept)."""
    return "\n".join(line if kind == "python" else "" for kind, line in fenced(path))


@pytest.mark.parametrize("path", DOCUMENTS)
def test_python_examples(path: str, monkeypatch):
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(python_text(path), {}, path, path, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} Python examples of {path} fail (output above)"


def test_the_documents_have_examples():
    readme = [e for e in EXAMPLES if e.path == "README.md"]
    assert len(readme) >= 15 and doctest.DocTestParser().get_examples(python_text("README.md"))
    for path in DOCUMENTS:    # a page of the list runs something: commands, or doctests
        assert (any(e.path == path for e in EXAMPLES)
                or doctest.DocTestParser().get_examples(python_text(path))), path


def test_an_edited_output_fails():
    """The check is not blind: one changed character of a shown output is caught."""
    example = next(e for e in EXAMPLES if any(not line.endswith(TIMING) and line.strip()
                                              for line in e.expected))
    actual = run(example.command)
    assert not differences(example.expected, actual)
    k = next(i for i, line in enumerate(example.expected)
             if line.strip() and not line.endswith(TIMING))
    edited = list(example.expected)
    edited[k] = edited[k][:-1] + ("X" if edited[k][-1] != "X" else "Y")
    assert differences(edited, actual)
    assert differences(example.expected + ["one more line"], actual)


def test_decimals_may_differ_only_in_their_last_digit():
    assert same_line('"score": 10.563004, "n": 12', '"score": 10.563006, "n": 12')
    assert same_line('"p": 0.225650', '"p": 0.22565')
    assert same_line('"score": 23.658805', '"score": 23.658802')
    assert same_line('0.41', '0.42')
    assert not same_line('0.41', '0.43')
    assert not same_line('"score": 10.563004', '"score": 10.563204')
    assert not same_line('"p": 0.1', '"p": 0.123456')
    assert not same_line('"n": 12', '"n": 13')
    assert not same_line('"card": 21, "s": 1.5', '"card": 24, "s": 1.5')
    assert not same_line('play 21 (p 0.41)', 'play 21 (p 0.41, worlds 4)')


def test_an_edited_python_output_fails(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = python_text("README.md")
    example = next(e for e in doctest.DocTestParser().get_examples(text) if "4" in e.want)
    assert example.want.strip()
    edited = text.replace(example.want, example.want.replace("4", "5", 1), 1)
    assert edited != text
    test = doctest.DocTestParser().get_doctest(edited, {}, "edited", "edited", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=lambda _: None)
    assert runner.failures == 1


def before_digit(line: str) -> str:
    return re.split(r"\d", line, maxsplit=1)[0]


def update(path: str) -> None:
    """Rewrite the outputs of `path`'s console blocks from a fresh run (timing lines kept
    marked where the document marked them)."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    for example in reversed(console_examples(path)):
        actual = run(example.command)
        if len(actual) == len(example.expected):
            actual = [want if want.rstrip().endswith(TIMING) else got
                      for want, got in zip(example.expected, actual)]
        else:       # lines added or removed: a timing line is known by its text up to a digit
            timing = {before_digit(want): want for want in example.expected
                      if want.rstrip().endswith(TIMING)}
            actual = [timing.get(before_digit(got), got) for got in actual]
        lines[example.first_output_line:example.end_output_line] = [a.rstrip() for a in actual]
    with open(os.path.join(ROOT, path), "w", encoding="utf-8") as out:
        out.write("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--update":
        update(sys.argv[2])
    else:
        sys.exit("usage: python tests/test_docs.py --update FILE")
