from django.urls import path

from tables.live import consumers
from tables.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
