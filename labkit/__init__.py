"""labkit: the command line over the three faces (print, table, authoring)."""
