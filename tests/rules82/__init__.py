"""Rule 82: rulebook situations, war, diplomacy, limits, movement, BRPs, enforcement, the
status machine, queries, clause switches and the kinds of surviving mutants."""
