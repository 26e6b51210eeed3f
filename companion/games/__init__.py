"""Game plugins for the companion, one package per game
(``companion/games/<game>/``). They are found through each game's
descriptor (``GameDescriptor.companion``), never by scanning this folder."""
