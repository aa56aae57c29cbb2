"""A run's configuration, setup, identity and metadata: the `-T` parameters validated once
(`config.py`), what they build once (`setup.py`), the fingerprint of everything that can change a
number (`identity.py`), and the typed eval metadata the task writes and the report reads
(`metadata.py`)."""
