"""polar-validate: measure a leak detector against hand-labelled cases (docs/validation.md)."""
