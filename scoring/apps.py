from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Num scores"

    def ready(self):
        from scoring import checks  # noqa: F401  (registers the deployment checks)
