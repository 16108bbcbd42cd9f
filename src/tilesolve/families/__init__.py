"""Puzzle families: one package each (model, backends, generator, drawing)."""
