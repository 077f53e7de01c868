"""What scoring announces to the rest of the project (scoring itself imports no other app).

`seats_scored` — sent by scoring.services each time a write stored the seats of a
sheet owned by an account (totals, winners and records as the engine computed them).
Arguments:

- `game`: the sheet's game slug;
- `user_ids`: the set of user ids attached to the sheet's seats (may be empty);
- `owner_id`: the id of the account that owns the sheet;
- `sheet_id`: the sheet's id;
- `finished`: whether the sheet is finished after the write;
- `was_finished`: whether it was finished before it (a round removed from a finished
  game makes it unfinished again: what was counted must be counted again).

`sheets_owned` — sent by scoring.services when sheets enter an account: a sheet made
while logged in, or anonymous sheets claimed or saved into an account. Arguments:

- `user_id`: the account's id;
- `sheet_ids`: the ids of the sheets that entered it.

Both are sent inside the write's transaction, after the rows are saved: a receiver sees
them and its own writes commit or roll back with the write. Receivers must not raise
for a user they do not know, and must not write to the sheet's rounds or totals; they
may attach a seat to its owner (the accounts app does: « C'est moi » without a chore).
The accounts app recounts standings, players and ratings (accounts/signals.py).
"""

from django.dispatch import Signal

seats_scored = Signal()
sheets_owned = Signal()
