"""Page views: templates only, data comes from the API and websockets."""

from django.views.generic import TemplateView


class HomeView(TemplateView):
    template_name = "frontend/home.html"
