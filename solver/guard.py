"""The stop signals (Ctrl-C, SIGTERM, SIGHUP) while no command runs: while the command line
loads, and once a command has ended and Python shuts down. Then nothing is half done, so a
stop ends the process at once, in one line with its exit status (130, 143, 129), not in a
traceback, a Python warning, or in silence. Only built-in modules are loaded here: the
entry point sets the guard before anything else of the package loads."""
import os
import signal

# the words and statuses of solver.cli.app (ExitStatus, STOPPED), which may not be loaded yet
GUARDED = {signal.SIGINT: (b"interrupted (Ctrl-C)", 130)}
for _name, _words, _status in (("SIGTERM", b"terminated (SIGTERM)", 143),
                               ("SIGHUP", b"hung up (SIGHUP)", 129)):
    if hasattr(signal, _name):
        GUARDED[getattr(signal, _name)] = (_words, _status)


def _stopped(signum, frame) -> None:
    # at once: an exception raised here could land in the import machinery's callbacks or
    # in Python's shutdown, which print it and go on
    words, status = GUARDED[signum]
    os.write(2, b"nimmt: error: " + words + b"\n")
    os._exit(status)


def guard_stops() -> None:
    """From now on a stop signal ends the process at once (see the module's docstring)."""
    for number in GUARDED:
        signal.signal(number, _stopped)
