"""Live games' HTTP API (DRF): thin views that parse, call a service and serialise."""
