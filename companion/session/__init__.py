"""The table session: the input log, turn order, secrets, the view, the journal, undo, replay."""
