"""The operators' view of the game server, composed from each feature's admin module (play,
mail, rooms, ratings, tournaments): games, seats and deadlines, and the few levers an operator
needs (pause/resume, end a game, extend a deadline, replace a seat with the AI), and the
replies received by mail.

Every lever is an admin action that calls a service in ``games.play.operations``; nothing
here writes a game's state itself, so the admin can never skip the game lock, the log or the
clock. The rows are read-only apart from a game's name, listing and timeout limit.

Tournaments follow the same rule: one is added through ``tournament_create`` (the
add form's settings are checked by that service alone), run by actions that call the
tournament services (start, pair the next round, cancel; each logs itself), and a change edits
only its name, description, entry window and limits and automatic pairing, logged as "edited".
The staff log (``TournamentAction``) is read-only.

Hidden information: the server seed decides every roll and the card order, so
no list column, filter, search field or change page shows it while the game is on; a finished
game's page reveals it (``revealed_seed``). Players' client seeds are treated the same way, the
board's page shows the public view until the end, and the action log (whose rolls would give
away the deck order) is not browsable here at all: the replay API serves it once the game is
over. Every admin here is a ``games.web.admin_secrets.SecretSafeAdmin``: the changelists accept
only their declared filters as URL lookups and never a lookup, search or ordering that touches
a secret field, so a crafted URL (``?server_seed__startswith=3``) is a 400 rather than an
oracle on the seed.
"""

from games.mail import admin as mail_admin
from games.play import admin as play_admin
from games.ratings import admin as ratings_admin
from games.rooms import admin as rooms_admin
from games.tournaments import admin as tournaments_admin

__all__ = ["mail_admin", "play_admin", "ratings_admin", "rooms_admin", "tournaments_admin"]
