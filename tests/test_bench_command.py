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
                       "'x' is not a finite number above 0", "nimmt bench engine --help")
    for option, value in (("--seconds", "nan"), ("--seconds", "0")):   # nan ran without end
        assert_input_error(run(["bench", "playouts", option, value]), "not a finite number")
    assert_input_error(run(["bench", "resume", "--count", "-1"]), "not an integer of 1 or more")
    assert_input_error(run(["bench", "paired", "--players", "4"]), "bench paired",
                       "--bot is required")


def test_a_results_file_of_someone_else_is_kept(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("hello")
    record = tmp_path / "record.json"             # JSON, but no benchmark's
    record.write_text('{"deck": 24, "turns": []}')
    for path in (mine, record):
        before = path.read_text()
        assert_input_error(run(["bench", "paired", "--players", "3", "--rounds", "2", "--bot",
                                "greedy", "--rounds-json", str(path)]),
                           "not a benchmark's results")
        assert path.read_text() == before
    ours = tmp_path / "rounds.json"
    for _ in range(2):                            # its own results: replaced
        result = run(["bench", "paired", "--players", "3", "--rounds", "2", "--bot", "greedy",
                      "--base", "random", "--rounds-json", str(ours)])
        assert result.exit_code == 0, result.output


def test_the_reviewers_against_rollouts_of_the_true_deal():
    """One round of four `net`s: every decision of 2+ cards (36) estimated by both
    reviewers, the same run twice the same numbers."""
    args = ["bench", "review", "--rounds", "1", "--iterations", "500",
            "--reviewers", "belief:worlds=4:belief=16,mcts"]
    result = run(args)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("| belief")
            or line.startswith("| mcts")]
    assert len(rows) == 2 and all("| 36 |" in row for row in rows)
    assert "belief:worlds=4:belief=16's best card minus mcts's" in result.stdout
    assert run(args).stdout == result.stdout
    assert_input_error(run(["bench", "review", "--reviewers", "net"]), "cannot review")
    assert_input_error(run(["bench", "review", "--players", "2"]), "--players must be 3 to 10")
