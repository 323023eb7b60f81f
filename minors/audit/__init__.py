"""What a referee uses: scenario files and runs (`scenario`), the tamper-evident audit log
(`log`) and the turn-by-turn report (`report`)."""
