"""nimmt: an analysis engine for the card game 6 nimmt!

The layers, from the ground up (docs/architecture.md):
`core` (rules, positions, turns, records, the seat interface) · `exact` (the 2-player
solver) · `mcts` (the search player) · `play` (game runners, bots, tournaments) · `advice`
(`nimmt best`) · `text` (the words of the command line) · `cli` (the `nimmt` command).
"""
import os

# One BLAS thread unless told otherwise, set before numpy loads: where the network's
# products fall back on numpy's (no AVX2 and FMA: solver/learn/model.py), they then sum in
# one order (two threads change the advice's last digits). Imported after numpy, the
# package leaves the thread count as it finds it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import importlib

# the public names and their modules, imported on first use: `import solver` (and so the
# `nimmt` command's first moments, where Ctrl-C must not show a traceback) stays cheap
_EXPORTS = {
    "Player": "core.player", "PlayerView": "core.player",
    "Position": "core.position",
    "replay": "core.record",
    "GameConfig": "core.rules", "bullheads": "core.rules",
    "Turn": "core.turn", "TurnOutcome": "core.turn", "apply_turn": "core.turn",
    "NimmtError": "errors", "PositionError": "errors", "SearchLimitError": "errors",
    "Engine": "exact", "Solution": "exact", "solve": "exact",
    "Limit": "limits",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
