"""Publishing a generated set: the writing half of the Hugging Face folder format.

`hf_folder.write_folder` (Parquet shards, `parquet.records_table`, and the card,
`hf_card.render_card`) writes what `polar_inspect.data` reads back; `polar_inspect.data` only
reads. Needs the `[hf]` extra.
"""
