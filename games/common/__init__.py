"""Small server helpers several features share (queuing a task by name, the API's throttle
scopes). Imports no feature: a feature may use these, never the other way round."""
