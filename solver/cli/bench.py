"""`nimmt bench`: the benchmarks of benchmarks/, run by name."""

import click

from .app import main


# bench ------------------------------------------------------------------------------------
@main.command(context_settings={"ignore_unknown_options": True,
                                "allow_interspersed_args": False})
@click.argument("name", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def bench(ctx, name, args):
    """The benchmarks: list them, or run NAME with its own options.

    nimmt bench NAME --help shows a benchmark's options.

    The benchmarks are in the repository's benchmarks/ folder (docs/benchmarks.md has every
    command and its results): run them in a clone (or after pip install -e .).

    \b
    Examples:
      nimmt bench
      nimmt bench solver --quick
      nimmt bench paired --players 4 --bot belief --rounds 200 --jobs 2
    """
    from ..bench import available, run

    if name is None:
        found = available()
        width = max(len(n) for n, _ in found)
        click.echo("\n".join(f"{n:<{width}}  {doc}" for n, doc in found))
        return
    status = run(name, args)
    if status:
        ctx.exit(status)
