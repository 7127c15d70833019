# The Ramsli table server in a container (docs/deploy.md).
#
#   docker build -t ramsli .                                  # on the official Python image
#   docker build --build-arg BASE=local/debian-python:bookworm -t ramsli .
#
# BASE is any image with Python >= 3.11 and its venv module (the tests build on one made from
# Debian's packages with debootstrap). If the build context holds a folder wheels/ with ramsli's
# wheel and its dependencies' (`pip wheel --wheel-dir wheels '.[postgres]'`), they are installed
# from there with --no-index (no network in the build); otherwise pip fetches the dependencies.
# The classic builder is enough (no BuildKit features).

ARG BASE=python:3.11-slim

FROM ${BASE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
COPY . /src
RUN python3 -m venv /opt/ramsli \
 && if ls /src/wheels/ramsli-*.whl >/dev/null 2>&1; then \
        /opt/ramsli/bin/pip install --no-index --find-links /src/wheels 'ramsli[postgres]'; \
    else \
        /opt/ramsli/bin/pip install '/src[postgres]'; \
    fi \
 && (/opt/ramsli/bin/pip uninstall --yes pip setuptools wheel >/dev/null 2>&1 || true) \
 && /opt/ramsli/bin/python -c "import ramsli.server.app"

# the runtime: the base, the virtual environment, a user; no sources, no compilers, no pip
FROM ${BASE}
COPY --from=build /opt/ramsli /opt/ramsli
RUN (useradd --system --uid 10001 --user-group --home-dir /var/lib/ramsli --shell /usr/sbin/nologin ramsli \
     || adduser --system --uid 10001 --group --home /var/lib/ramsli ramsli) \
 && mkdir -p /var/lib/ramsli \
 && chown ramsli:ramsli /var/lib/ramsli
ENV PATH=/opt/ramsli/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/var/lib/ramsli \
    RAMSLI_DATABASE=sqlite+aiosqlite:////var/lib/ramsli/server.sqlite
USER ramsli
WORKDIR /var/lib/ramsli
VOLUME /var/lib/ramsli
EXPOSE 8000
# alive: the process answers (readiness, /readyz, is the proxy's and the orchestrator's to ask);
# RAMSLI_HEALTH_URL for a server started on another port
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ.get('RAMSLI_HEALTH_URL', 'http://127.0.0.1:8000/healthz'), timeout=2)"]
STOPSIGNAL SIGTERM
CMD ["ramsli", "serve", "--host", "0.0.0.0", "--port", "8000"]
