# The one image behind the web, worker and beat services of docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    WARBOARD_VAR_DIR=/app/var

WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY combat ./combat
COPY risk ./risk
COPY frontend ./frontend
COPY manage.py ./
RUN pip install . \
    && useradd --create-home --uid 1000 warboard \
    && mkdir -p /app/var && chown warboard /app/var
# collectstatic only reads settings; a throwaway key keeps it from writing var/secret_key.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput -v0
USER warboard
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
