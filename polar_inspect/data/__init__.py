"""Release records in, Inspect samples out: models, loading, data sources, sample conversion.

This package only reads. Also: `hf_folder` (reading Hugging Face dataset folders; writing them
is `generate.publish`), `folder_card` (a folder against its card), `hub` (Hub downloads through
the local cache), `short_values` and `target_checks` (values too short to match, repeated, or
not in their document; import them from their modules: they use the detectors).
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
