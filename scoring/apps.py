from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Num scores"

    def ready(self):
        from scoring.api import schema  # noqa: F401  (registers the OpenAPI auth extension)
