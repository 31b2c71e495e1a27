"""The words the command line prints: tables, solutions, advice, tournaments, progress.
Nothing here computes an answer; every function turns data into lines."""
