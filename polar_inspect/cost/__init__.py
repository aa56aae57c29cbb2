"""Price rules and `polar-cost` (docs/cost.md): a tool layer the report imports to price finished
runs; it imports nothing of the report."""
