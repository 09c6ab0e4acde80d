"""The app's screens: the main menu (menu), a new game (setup), the saved games (resume), the
rules pages (rules), the results (results), the settings (settings); the game tables (table,
tables and one module per game) with the hand-off curtain (handoff) and confirmations (confirm).

Nothing is imported here, so importing one screen never pulls in the others."""
