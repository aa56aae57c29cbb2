"""Price rules and `polar-cost`: provider sheets (`sheet`), the estimate before a run
(`estimate`, `bill`), token counting (`tokens`) and the command (`cli`). See docs/cost.md.

A tool layer: the report imports it to price finished runs; it imports nothing of the report.
"""
