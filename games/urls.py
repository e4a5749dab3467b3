from django.urls import path

from games import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
