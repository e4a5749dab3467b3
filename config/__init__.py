"""Project configuration: settings, URL routes, the ASGI entry point and the Celery app.

Importing the package loads the Celery app so that ``@shared_task`` decorators in every app bind
to it (the layout Celery's Django guide recommends).
"""

from config.celery import app as celery_app

__all__ = ("celery_app",)
