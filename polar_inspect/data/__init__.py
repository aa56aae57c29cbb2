"""Release records in, Inspect samples out: models, loading, data sources, sample conversion.

Also: `hf_folder` (Hugging Face dataset folders: Parquet shards and a card), `hub` (Hub
downloads through the local cache), `short_values` (values too short to match reliably; import
it from its module: it uses the scorer's normaliser).
"""

from polar_inspect.data.loading import RecordError, RecordProblem, load_records, parse_records
from polar_inspect.data.record_values import flatten_values, parse_attacker_turns
from polar_inspect.data.records import PolarRecord, RecordRuleError
from polar_inspect.data.samples import SampleInfo, record_to_sample, records_to_dataset
from polar_inspect.data.sources import (
    OFFICIAL_RELEASE,
    DataSource,
    DataSourceError,
    OfficialRelease,
    bundled_path,
    cache_dir,
    load_source,
    resolve_source,
)

__all__ = [
    "OFFICIAL_RELEASE",
    "DataSource",
    "DataSourceError",
    "OfficialRelease",
    "PolarRecord",
    "RecordError",
    "RecordProblem",
    "RecordRuleError",
    "SampleInfo",
    "bundled_path",
    "cache_dir",
    "flatten_values",
    "load_records",
    "load_source",
    "parse_attacker_turns",
    "parse_records",
    "record_to_sample",
    "records_to_dataset",
    "resolve_source",
]
