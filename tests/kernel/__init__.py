"""The kernel: the engine, rulebooks, the log chain, pickling, errors, command building and
the property tests of the kernel."""
