"""OpenAPI descriptions of how API clients prove who they are."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class SessionOrTokenScheme(OpenApiAuthenticationExtension):
    target_class = "scoring.api.auth.DjangoSessionAuthentication"
    name = ["editToken", "shareToken", "session"]

    def get_security_definition(self, auto_schema):
        return [
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-Edit-Token",
                "description": "Returned once by the create call; reads and writes the sheet.",
            },
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-Share-Token",
                "description": "The token of the share link; reads only.",
            },
            {
                "type": "apiKey",
                "in": "cookie",
                "name": "sessionid",
                "description": "The browser that created the sheet (writes need the CSRF header).",
            },
        ]
