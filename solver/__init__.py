"""nimmt: an analysis engine for the card game 6 nimmt!

The layers, from the ground up (docs/architecture.md):
`core` (rules, positions, turns, records, the seat interface) · `exact` (the 2-player
solver) · `mcts` (the search player) · `play` (game runners, bots, tournaments) · `advice`
(`nimmt best`) · `text` (the words of the command line) · `cli` (the `nimmt` command).
"""
import os

# One BLAS thread unless told otherwise, set before numpy loads: the networks' float32
# products then sum in one order on any machine (two threads change the advice's last
# digits). Imported after numpy, the package leaves the thread count as it finds it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .core.player import Player, PlayerView
from .core.position import Position
from .core.record import replay
from .core.rules import GameConfig, bullheads
from .core.turn import Turn, TurnOutcome, apply_turn
from .errors import NimmtError, PositionError, SearchLimitError
from .exact import Engine, Solution, solve
from .limits import Limit

__all__ = ["Engine", "GameConfig", "Limit", "NimmtError", "Player", "PlayerView", "Position",
           "PositionError", "SearchLimitError", "Solution", "Turn", "TurnOutcome",
           "apply_turn", "bullheads", "replay", "solve"]
