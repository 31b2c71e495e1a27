"""The `nimmt` command's entry point: the command line loaded under the stop signals'
guard (`guard`), so that Ctrl-C, SIGTERM or SIGHUP in its first half second (numpy and
the extensions loading) ends like it would later, in one line with its exit status; and
the guard set again once the command has ended, for Python's exit."""
from .guard import guard_stops


def main() -> None:
    guard_stops()                     # until the command line takes them (NimmtGroup.main)
    from .cli import main as command
    try:
        command(prog_name="nimmt")
    finally:
        guard_stops()
