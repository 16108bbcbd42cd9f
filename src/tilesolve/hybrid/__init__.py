"""The hybrid layer's moving parts: worker lanes, thread budgets, the process race.

`tilesolve.portfolio` puts them together; `tilesolve.bench` runs experiments on top.
"""
