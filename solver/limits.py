"""Upper bounds of the numeric options (command line, bot specs, API), listed in the README.

Every value then fits the C types it reaches, and no budget is so large that a command
cannot end: a larger value is refused as a mistake.
"""
MAX_ITERATIONS = 10 ** 9       # search iterations of a decision: about 3 hours at 4 players
MAX_SECONDS = 86_400.0         # a search budget in seconds: one day
MAX_JOBS = 64                  # search trees in threads
MAX_NODES = 10 ** 15           # exact search nodes: decades at 10^6 a second; a C long long
MAX_TT_MB = 65_536.0           # transposition table, MB (64 GB; the default is 3.2 GB at most)
MAX_THRESHOLD = 10_000         # a game's end threshold (random bots: 1,200 rounds)
MAX_GAMES = 1_000_000          # games of a tournament: hours even for random bots
