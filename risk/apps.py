from django.apps import AppConfig


class RiskConfig(AppConfig):
    name = "risk"
    verbose_name = "Nautical-but-Nice Fast Risk"
