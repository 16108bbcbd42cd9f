"""Puzzle-independent parts: input reading, results, verification reports, grid geometry."""
