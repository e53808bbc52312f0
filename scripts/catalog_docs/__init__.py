"""Catalogue-as-code tooling for the payment interface reference site."""
