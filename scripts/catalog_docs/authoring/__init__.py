"""Authoring aids beside the pipeline: `new_label` (a new version label copied from an existing one) and
`synth` (fake catalogues of any size for benchmarks)."""
