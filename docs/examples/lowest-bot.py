#!/usr/bin/env python3
"""A bot for `nimmt tournament --bots program:path=docs/examples/lowest-bot.py`: it plays its
lowest card, and with a card lower than every row end takes the shortest row (the first of
the shortest). The protocol is in docs/formats.md ("Program bots")."""
import json
import sys

for line in sys.stdin:                  # nimmt closes the input when the game ends
    message = json.loads(line)
    if message.get("ask") == "card":
        print(min(message["view"]["hand"]), flush=True)
    elif message.get("ask") == "row":
        rows = message["view"]["rows"]
        print(min(range(4), key=lambda r: (len(rows[r]), r)), flush=True)
    # {"tell": "round_over", ...} needs no answer
