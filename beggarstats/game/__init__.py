"""What a game is: cards and decks, the rules, and what one game returns (plain Python)."""
