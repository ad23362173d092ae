"""The scorepad's blueprints: pages (HTML), api (JSON), stream (server-sent events), camera."""
