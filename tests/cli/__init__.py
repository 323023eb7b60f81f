"""The command line: its commands, input and output, completion, progress bars and
`minors rules coverage`."""
