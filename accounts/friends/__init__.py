"""Friends and blocking: friend requests, friendships, blocks and invites to a private table
(``docs/friends.md``). An app of its own (label ``friends``) inside accounts' rules: it imports
nothing of the tables or the ledger; the tables read its selectors."""
