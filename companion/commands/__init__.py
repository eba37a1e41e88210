"""Sub-commands of the `companion` program, found by `companion.cli` (one module each)."""
