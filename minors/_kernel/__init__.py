"""The kernel: what runs a game and knows no rule (private; `minors` re-exports the public
names). `board`: the live position, its undo journal and key; `state`: a minor's live row
and the stable hash; `kind`: command kinds; `rulebook`: marking and collecting rules, the
rules in force and what a rule works with; `events`, `log`; `convert`: commands to data and
back; `game`: `BaseGame`, which runs a rulebook's rules.
"""
