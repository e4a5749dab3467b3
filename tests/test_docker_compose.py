"""docker-compose.yml describes the full stack (no Docker engine here, so the YAML is checked)."""

from __future__ import annotations

import pytest
import yaml

from tests.conftest import ROOT

EXPECTED_SERVICES = {"db", "redis", "web", "worker", "beat"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_of(service: dict) -> str:
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def test_the_five_services_exist_each_with_a_health_check(compose):
    assert set(compose["services"]) == EXPECTED_SERVICES
    for name, service in compose["services"].items():
        assert service["healthcheck"]["test"], name


def test_web_migrates_then_serves_the_asgi_app_with_daphne(compose):
    command = command_of(compose["services"]["web"])
    assert command.index("manage.py migrate") < command.index("daphne")
    assert "config.asgi:application" in command
    assert "/healthz" in " ".join(compose["services"]["web"]["healthcheck"]["test"])


def test_worker_and_beat_run_celery_on_the_config_app(compose):
    assert command_of(compose["services"]["worker"]).startswith("celery -A config worker")
    assert command_of(compose["services"]["beat"]).startswith("celery -A config beat")


def test_the_app_services_get_the_urls_and_wait_for_healthy_stores(compose):
    for name in ("web", "worker", "beat"):
        service = compose["services"][name]
        assert service["environment"]["DATABASE_URL"].startswith("postgres://")
        assert service["environment"]["DATABASE_URL"].endswith("@db:5432/warboard")
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert service["depends_on"] == {
            "db": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }
        assert service["build"] == "."


def test_the_image_copies_every_app(compose):
    dockerfile = (ROOT / "Dockerfile").read_text()
    for app in ("config", "games", "combat", "risk", "frontend"):
        assert f"COPY {app} ./{app}" in dockerfile
