"""Pure rules engines: standard library only, no clock, no global randomness, no I/O."""
