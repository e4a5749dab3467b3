"""The combat resolver: adjudicates battles for Warboard's own Risk game and for other games.

Its topic modules (dice, axis_allies, risk_dice, poker, crt) are pure Python: they take units,
rules and injected dice and return reports and exact odds, with no Django import (a test walks
their imports). The thin Django layer beside them (apps, views, serializers, urls) exposes them
over HTTP so correspondence players can resolve a battle or check their odds before attacking.
"""
