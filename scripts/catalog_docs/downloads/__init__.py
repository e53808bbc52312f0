"""Stage 3, downloads: the model as catalog.json, the lock matrix CSV and the OpenAPI document.
Entry: `export.export_text`."""
