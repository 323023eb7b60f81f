"""The audit log and its reports: the log, the referee's workflow, bad logs, the page of a
game and the page in a browser."""
