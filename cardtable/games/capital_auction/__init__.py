"""Capital Auction's table: the auction block, every portfolio, the Tool hand, the Capital cards
to bid with, and a dialog that lists the moves a Tool, a reaction or an effect allows."""
