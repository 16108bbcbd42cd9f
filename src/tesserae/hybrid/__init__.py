"""The hybrid layer's moving parts: worker lanes, thread budgets, the process race.

`tesserae.portfolio` puts them together; `tesserae.bench` runs experiments on top.
"""
