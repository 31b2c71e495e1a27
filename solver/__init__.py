"""nimmt: an analysis engine for the card game 6 nimmt!"""
from .errors import NimmtError, PositionError
from .position import Position
from .rules import GameConfig, bullheads

__all__ = ["NimmtError", "PositionError", "Position", "GameConfig", "bullheads"]
