"""Portfolio's table, board, score sheet and dialogs."""
