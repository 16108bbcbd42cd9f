"""The hybrid layer: worker lanes, thread budgets and the process race, which the portfolio
puts together; and the islands on Dask.

It builds on `core/` (the pipeline of one backend and the checker's gate, `core.verdict`) and
`backends/`; neither imports it, nor do the families, and it imports no `tilesolve.dispatch`,
which sends a solve to the portfolio or the islands (tests/test_layers.py). The benchmarks
(`tilesolve.bench`) run experiments on top of `dispatch`.
"""
