#!/usr/bin/env bash
# npm run test:deploy: the deployment as a user runs it, on a Docker daemon that answers (root).
#
# Images: by default the official ones deploy/docker-compose.yml names (node, postgres, nats, redis, nginx), pulled
# or already present, as on a user's machine. Where no registry is reachable, point BUNTING_STANDIN_IMAGES at a
# folder of stand-in recipes (a `build.sh` that builds images under those same tags, and a `docker-env.sh` whose
# `bunting_docker_env` finds or starts a daemon); they are built first. That variable is the only place this looks.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -n "${BUNTING_STANDIN_IMAGES:-}" ]; then
  IMAGES=$BUNTING_STANDIN_IMAGES
  [ -f "$IMAGES/docker-env.sh" ] && [ -x "$IMAGES/build.sh" ] \
    || { echo "test:deploy: BUNTING_STANDIN_IMAGES=$IMAGES has no docker-env.sh and build.sh" >&2; exit 1; }
  # shellcheck disable=SC1091
  source "$IMAGES/docker-env.sh"
  bunting_docker_env
  export DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
  export DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
  "$IMAGES/build.sh" >/dev/null
else
  export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-0} COMPOSE_DOCKER_CLI_BUILD=${COMPOSE_DOCKER_CLI_BUILD:-0}
  timeout 15 docker version >/dev/null 2>&1 || {
    echo "test:deploy: no Docker daemon answers (set DOCKER_HOST), or set BUNTING_STANDIN_IMAGES to stand-in image recipes" >&2
    exit 1
  }
  for image in node:24-bookworm-slim postgres:15 nats:2.10 redis:7 nginx:1.27; do
    docker image inspect "$image" >/dev/null 2>&1 || docker pull -q "$image" >/dev/null || {
      echo "test:deploy: $image is not here and cannot be pulled; with no registry, set BUNTING_STANDIN_IMAGES" >&2
      exit 1
    }
  done
fi
command -v docker-compose >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null; }
# The ingress on a port nothing else holds (a user's own stack on 4242 stays untouched); DEPLOY_PORT overrides.
if [ -z "${DEPLOY_PORT:-}" ]; then
  DEPLOY_PORT=$(node -e "const s = require('node:net').createServer().listen(0, '0.0.0.0', () => { console.log(s.address().port); s.close(); })")
fi
export DEPLOY_PORT BUNTING_PORT=$DEPLOY_PORT
exec node deploy/test/deploy-test.ts
