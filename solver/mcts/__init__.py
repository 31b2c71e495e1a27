"""The search player for hidden hands and 3 to 10 players (ISMCTS): `SearchPlayer`, the bot
`mcts`, and `analyse`, its estimates of every card of a position (`nimmt best`)."""
from .options import Opponents, Policy, Reward, SearchOptions, Selection
from .player import Analysis, CardEstimate, SearchPlayer, analyse, root_strategies

__all__ = ["Analysis", "CardEstimate", "Opponents", "Policy", "Reward", "SearchOptions",
           "SearchPlayer", "Selection", "analyse", "root_strategies"]
