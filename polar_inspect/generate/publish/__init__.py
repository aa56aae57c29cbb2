"""Publishing a generated set as a Hugging Face folder (docs/generator.md); needs `[hf]`."""
