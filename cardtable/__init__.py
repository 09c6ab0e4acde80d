"""cardtable: a terminal card table for economic card games."""

__version__ = "0.1.0"
