"""The project's own tooling, never imported by the product: bench, Lighthouse and pa11y runners, the static
server they use, the port check of `make serve`."""
