"""Many positions at once: seeded deals to analyse (`deals`), a batch of exact solves in worker
processes (`runner`) or on a Dask cluster (`cluster`, optional), its results file that a
killed batch resumes from (`results`), and the transposition table each worker may use
(`memory`)."""
