"""The benchmarks: run each from the repository root as a module, for example
`python -m benchmarks.bench_solver --quick` (docs/benchmarks.md has every command)."""
