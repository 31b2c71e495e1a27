"""`nimmt batch`: many positions solved in workers, and their report."""

import click

from .. import errors
from ..limits import MAX_JOBS, MAX_NODES, MAX_TT_MB, Limit
from .app import ExitStatus, NumberRange, json_by_key, main


# batch ------------------------------------------------------------------------------------
@main.group()
def batch():
    """Many positions at once (docs/formats.md, "Batch results")."""


@batch.command("solve")
@click.argument("positions")
@click.option("--out", "out", required=True, metavar="RESULTS.jsonl",
              help="The results file: one JSON line a position, appended as each finishes;"
                   " an existing one is resumed.")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Worker processes, one per core (more share the cores). Default 1.")
@click.option("--time-limit", type=NumberRange(0), default=0.0,
              help="Stop each position after S seconds (0: no limit): status limit.")
@click.option("--max-nodes", type=click.IntRange(0, MAX_NODES), default=0,
              help="Stop each position after N nodes (0: no limit): status limit.")
@click.option("--card-values", is_flag=True,
              help="Add every card's exact value (on a full deal about as costly as the solve).")
@click.option("--row-choices", is_flag=True,
              help="Add the first turn's row choices: each joint play of the equilibrium whose"
                   " lower card is too low, its best row against the cheapest (for 'nimmt"
                   " batch report').")
@click.option("--tt-size", "tt_mb", type=NumberRange(0.001, MAX_TT_MB), default=None,
              help="Each worker's table in MB (default: by hand size, capped so that the"
                   " workers fit in the memory available).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Solve on this Dask distributed cluster (e.g. tcp://host:8786) instead of"
                   " local workers; needs the batch extra.")
def batch_solve(positions, out, jobs, time_limit, max_nodes, card_values, row_choices, tt_mb,
                scheduler):
    """Solve every position of POSITIONS (one a line, JSON or text notation; - for stdin).

    Writes one JSON line a position to --out as each finishes (status solved, limit or
    error; docs/formats.md). A line that is no position of the 2-player 24-card game with
    both hands is recorded as an error and the batch goes on. Run the same command again to
    resume: the lines done are skipped (a results file of another input is refused), a torn
    last line is removed. Ctrl-C stops it cleanly (exit status 130); a finished batch exits
    with 0 when every position of the results file is solved, else with 5 (the counts are
    on stderr).

    \b
    Example:
      nimmt deal --count 20 --seed 1 --cards 6 --out six.jsonl
      nimmt batch solve six.jsonl --out six-results.jsonl --jobs 2
    """
    from ..batch.memory import available_mb, plan_tables
    from ..batch.results import ResultsFile
    from ..batch.runner import BatchOptions, BatchSummary, read_tasks, run_batch
    from ..reading import read_source
    from ..text.batch import (format_interrupted, format_jobs_note, format_resume, format_summary,
                              format_tables, format_worker_death)
    from ..text.progress import BatchProgress

    if scheduler is not None and jobs is not None:
        raise errors.NimmtError("--jobs sets local workers: with --scheduler the cluster's"
                                " workers solve")
    if out == "-":
        raise errors.NimmtError("--out - : the results must go to a file (a stopped batch"
                                " resumes from it), not to stdout")
    jobs = jobs or 1
    tasks = read_tasks(read_source(positions, "positions, one a line", by_line=True))
    results = ResultsFile(out)
    results.lock()
    try:
        state = results.resume({task.line: task.key for task in tasks},
                               {"card_values": card_values, "row_choices": row_choices})
        results.check_writable()
        todo = [task for task in tasks if task.line not in state.done]
        summary = BatchSummary(len(tasks), skipped=len(tasks) - len(todo),
                               torn_bytes=state.torn_bytes, unsolved_before=state.unsolved)
        say = lambda line: line and click.echo(line, err=True)
        say(format_resume(summary.skipped, summary.total, state.torn_bytes, out))
        sizes = {task.position.hand_size for task in todo if task.position is not None}
        client = None
        if scheduler is not None:
            from ..batch.cluster import cluster_tables, connect
            client = connect(scheduler)
        try:
            if client is not None:
                tables = cluster_tables(client, sizes, tt_mb)
            else:
                solvable = sum(1 for task in todo if task.position is not None)
                tables = plan_tables(max(1, min(jobs, solvable)), sizes, tt_mb, available_mb())
            if sizes:
                say(format_tables(tables, scheduler))
                say(None if client is not None else format_jobs_note(tables.workers))
            options = BatchOptions(Limit(nodes=max_nodes, seconds=time_limit), card_values, tables,
                                   row_choices)
            progress = BatchProgress(summary.total, summary.skipped)
            progress(summary.done)
            on_result = lambda _, s: progress(s.done, s.counts["error"])
            try:
                if client is not None:
                    from ..batch.cluster import run_on_cluster
                    run_on_cluster(client, todo, results, options, on_result, summary)
                else:
                    def on_death(*death) -> None:
                        progress.close()
                        say(format_worker_death(*death))
                    run_batch(todo, results, options, jobs, summary=summary, on_result=on_result,
                              on_death=on_death)
            except KeyboardInterrupt:
                progress.close()
                say(format_interrupted(summary, out))
                raise
            finally:
                progress.close()
        finally:
            if client is not None:
                client.close()
        say(format_summary(summary, out))
        return ExitStatus.NOT_ALL_SOLVED if summary.unsolved else ExitStatus.OK
    finally:
        results.unlock()


@batch.command("report")
@click.argument("results", metavar="RESULTS.jsonl")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--plots", "plots_dir", default=None, metavar="DIR",
              help="Also draw the report's figures as PNG files in DIR (made if missing);"
                   " needs the plots extra (matplotlib).")
def batch_report(results, as_json, plots_dir):
    """Figures of a batch's results file (nimmt batch solve): the values' distribution,
    mixed first turns and support sizes, row choices, solve seconds by cards a hand.

    A torn last line is skipped, lines stopped by a limit and errors are counted apart
    (docs/report.md says what each figure counts).

    \b
    Example:
      nimmt batch report positions/batch/results.jsonl --plots plots/
    """
    from ..batch.report import read_report
    from ..text.report import format_plot, format_report

    report = read_report(results)
    written = []
    if plots_dir is not None:
        from ..batch.plots import write_plots
        written = write_plots(report, plots_dir)
    click.echo(json_by_key(report.to_dict()) if as_json else format_report(report, results))
    for path in written:
        click.echo(format_plot(path), err=True)
