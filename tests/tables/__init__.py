"""The tables as data: cells, overlays, validation, JSON Schemas and the clause registry."""
