"""Abundance's table: market tally, auction block, trinkets, sales sheet and trade dialog."""
