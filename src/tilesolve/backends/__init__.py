"""Family-independent solver runners: each knows its solver library and nothing about puzzles."""
