"""A run's configuration, setup, identity and metadata (docs/architecture.md)."""
