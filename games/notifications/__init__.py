"""Notifications: the one dispatch that tells a person something happened, by the channel they
chose for that kind (Web Push to their devices, email, or nothing), their push devices, their
choices, and the server's VAPID keys. Features hand it notices (``dispatch.deliver``) from their
tasks, after the commit; it imports no feature."""
