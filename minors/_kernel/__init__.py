"""The kernel: what runs a game and knows no rule (private; the public names are
re-exported by `minors`).

- `clock`-free here: moments and phases are domain values (`minors.domain.clock`);
- `state`: the frozen records of a position; `chain`: persistent chains (ledger, log);
- `tx`: the transaction a command or an advance builds the next state in;
- `kind`: the `Command` base and the generic work on command kinds;
- `rulebook`: marking rules and collecting them (`Rulebook`); `effects`: what rules did;
- `log`: the in-memory log; `game`: `BaseGame`, which runs a rulebook's rules.
"""
