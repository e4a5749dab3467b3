"""The wire protocol as typed definitions, one module each: the game's events (``events``), the
game view (``view``) with its legal actions' options per action type (``legal``) and the
socket's messages (``socket``); ``text`` renders the events' English from the catalog's
templates, ``schema`` derives the JSON Schema and the document the browser reads
(``GET /api/protocol``). Pure: no Django, so the engine's tests, the server and the browser's
catalog all read the same definitions.
"""
