"""Stage 4, the site: Markdown pages from Jinja templates, written crash-safe into docs/, and the shells that
run it under a builder (the mkdocs hook, the serve preview). Entry: `incremental.render_if_changed`."""
