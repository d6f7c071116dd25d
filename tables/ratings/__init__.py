"""Skill ratings per variant family (openskill's Weng-Lin Plackett-Luce model) and Play now's
preference for tables near the player's rating. See docs/ratings.md."""
