"""The hybrid layer: worker lanes, thread budgets and the process race, which the portfolio
puts together; the islands on Dask; and the benchmarks (`bench`) that run experiments on top.

It builds on `core/` (the pipeline of one backend and the checker's gate, `core.verdict`);
`core/` never imports it: `tilesolve.dispatch` sends a solve to the portfolio or the islands.
"""
