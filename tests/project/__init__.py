"""The project as a whole: docs, layout, packaging, contributing recipes, the starter, the
testing kit, OpenSpiel, the public API and contracts, and bad input."""
