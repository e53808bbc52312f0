"""Stage 4, the site: Markdown pages from Jinja templates, in memory (`pages.site_files`), and the shells that
give them to an engine: the mkdocs plugin with the serve preview, the build folder of engines without plugins
(`watch.py`), and `render --out` (`folders.py`). Nothing of the tool's is ever written into docs/."""
