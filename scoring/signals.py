"""What scoring announces to the rest of the project (scoring itself imports no other app).

`seats_scored` — sent by scoring.services each time a write stored the seats of a
sheet owned by an account (totals, winners and records as the engine computed them)
and some of its seats are attached to users. Arguments:

- `game`: the sheet's game slug;
- `user_ids`: the set of user ids attached to the sheet's seats.

It is sent inside the write's transaction, after the seats are saved: a receiver sees
them and its own writes commit or roll back with the round. Receivers must not raise
for a user they do not know, and must not write to the sheet. The accounts app
recounts those users' standings in that game (accounts/signals.py).
"""

from django.dispatch import Signal

seats_scored = Signal()
