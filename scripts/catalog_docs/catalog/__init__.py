"""Stage 1, the catalogue: find catalog/, read its YAML with source marks, validate it and build the frozen model.

In: a catalogue folder (or a git revision of one). Out: `model.Catalog`, or `CatalogInvalid` with every error.
Entry: `validate.load_catalog`."""
