"""Scoring engines of the Num card games (plain Python, no Django).

``GAMES`` maps each slug to its engine, in catalogue order.
"""

from .base import Issue, ScoringError
from .coop import Coop
from .numking import NumKing
from .numwin import NumWin
from .numx import NumX
from .numx_malus import NumXMalus

GAMES = {
    "numx": NumX(),
    "numx-malus": NumXMalus(),
    "numwin": NumWin(),
    "numking": NumKing(),
    "coop": Coop(),
}

__all__ = ["GAMES", "Issue", "ScoringError"]
