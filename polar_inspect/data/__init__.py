"""Release records in, Inspect samples out; this package only reads (docs/data.md)."""

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

__all__ = ["OFFICIAL_RELEASE", "DataSource", "DataSourceError", "OfficialRelease", "PolarRecord",
           "RecordError", "RecordProblem", "RecordRuleError", "SampleInfo", "bundled_path",
           "cache_dir", "flatten_values", "load_records", "load_source", "parse_attacker_turns",
           "parse_records", "record_to_sample", "records_to_dataset", "resolve_source"]  # fmt: skip
