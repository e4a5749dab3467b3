"""The HTTP face of the combat resolver: parse the envelope, call a service, send the report."""
