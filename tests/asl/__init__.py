"""ASL A25: nationality profiles, the bridge, Commissars, Human Wave, DYO, the hex grid and
the A25 arguments, findings and situations."""
