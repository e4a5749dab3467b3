"""Combat results tables of hex wargames: World in Flames option 27 and France 1944 (revised).

Pure Python (no Django). The tables are data files in ``data/`` (each with a header naming its
source and every OCR fix), checked at load time; ``wif`` and ``france_1944`` turn a battle into a
die-roll modifier or column, resolve it with injected dice, and give the exact chance of every
result (``results.CrtOdds``).
"""
