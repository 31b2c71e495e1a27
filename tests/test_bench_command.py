"""`nimmt bench`: the repository's benchmarks by name, their own options, one-line errors."""
from tests.support import assert_input_error, run


def test_bench_lists_every_benchmark_with_its_description():
    result = run(["bench"])
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert {"solver", "paired", "engine", "exhaustive", "inference"} <= set(names)
    assert "Paired rounds: how many fewer bullheads" in result.stdout


def test_bench_runs_a_benchmark_with_its_own_options():
    result = run(["bench", "engine", "--seconds", "0.02"])
    assert result.exit_code == 0, result.output
    assert "| players | Cython core (rounds/s)" in result.stdout


def test_a_benchmark_s_help_is_its_own():
    result = run(["bench", "paired", "--help"])
    assert result.exit_code == 0
    assert result.stdout.startswith("usage: nimmt bench paired") and "--rounds-json" in result.stdout


def test_bad_benchmark_names_and_options_are_one_line():
    assert_input_error(run(["bench", "nothing"]), "no benchmark 'nothing'", "solver", "paired")
    assert_input_error(run(["bench", "engine", "--seconds", "x"]), "bench engine",
                       "invalid float value: 'x'", "nimmt bench engine --help")
    assert_input_error(run(["bench", "paired", "--players", "4"]), "bench paired",
                       "--bot is required")
