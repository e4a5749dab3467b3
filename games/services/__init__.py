"""Only a shim for migration 0013 (``rerank``): the services live in the feature packages."""
