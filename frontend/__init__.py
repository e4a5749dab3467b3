"""The pages players see in the browser and their static assets (scripts, styles, board art).

No models: pages read through the ``games`` API and websockets like any other client.
"""
