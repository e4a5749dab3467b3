"""The static files storage of a deployed server: whitenoise's hashed, compressed names, with the
browser's ES modules' relative imports rewritten to the hashed names too.

Without the rewrite a hashed ``game.<hash>.js`` would import ``./state.js`` by its plain name: it
would be served (collectstatic keeps the originals) but never cached for long, and a module one
page loads by its hashed name and another module imports by its plain name would run twice (two
sockets for one game page).
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
