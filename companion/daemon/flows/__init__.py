"""The table's flows: the start menu and one flow per game, each turning inputs into entries."""
