"""Stage 2, comparison: two models in, typed change records out (`changes`), and their formats (text,
Markdown, JSON). Formats only format; none computes a diff of its own. Entry: `changes.compare_sides`."""
