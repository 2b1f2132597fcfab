"""Running games: one deal, batches of random games, matches and summaries, and keeping what they
give (tidy tables, the resumable store)."""
