"""POLAR-Bench as Inspect AI tasks."""

__version__ = "0.1.0"
