"""The kernel: what runs a game and knows no rule (private; the public names are
re-exported by `minors`).

- `board`: the live position, changed in place with an undo journal, and its key;
- `state`: the frozen records of a position; `chain`: persistent chains (ledger, log);
- `kind`: the `Command` base and the generic work on command kinds;
- `rulebook`: marking rules, collecting them (`Rulebook`), the rules in force (`Rules`) and
  what a rule works with (`Play`); `events`: what rules did;
- `convert`: states, commands and events to plain data and back;
- `log`: the in-memory log; `game`: `BaseGame`, which runs a rulebook's rules.
"""
