"""The shared web helpers every app's requests go through.

Parsing of request values, the fail-open cache, rate limits, the client's address, the
release digest, the access log, sessions, middleware, the disk-full guard, the API's error
body, the request's language, URL converters, the health checks and the project's error
pages. It imports no app (tests/test_layers.py); the apps and the project build on it.
"""
