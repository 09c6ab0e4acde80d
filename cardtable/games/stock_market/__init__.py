"""Card Stock Market's table: the stock-price sheet, the holdings, the certificates and the notes
under the hand."""
