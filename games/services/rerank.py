"""Kept for migration 0013, which imports ``games.services.rerank``; the code lives in
``games.ratings.rerank``."""

from games.ratings.rerank import Models, rerank_all

__all__ = ["Models", "rerank_all"]
