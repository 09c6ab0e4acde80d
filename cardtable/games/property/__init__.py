"""Property's table, grid and purchase dialog."""
