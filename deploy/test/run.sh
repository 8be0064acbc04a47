#!/usr/bin/env bash
# npm run test:deploy: the deployment as a user runs it. Needs root (a Docker daemon of its own when none answers)
# and the stand-in images of ../shared/container-images (built here when missing; no registry is reachable).
set -euo pipefail
cd "$(dirname "$0")/../.."
# The stand-ins' recipes: BUNTING_STANDIN_IMAGES, else beside the repository, else this machine's shared folder.
IMAGES=${BUNTING_STANDIN_IMAGES:-}
if [ -z "$IMAGES" ]; then
  for candidate in ../shared/container-images /work/shared/container-images; do
    if [ -f "$candidate/docker-env.sh" ]; then IMAGES=$candidate; break; fi
  done
fi
[ -n "$IMAGES" ] && [ -f "$IMAGES/docker-env.sh" ] || { echo "test:deploy: no stand-in images recipes found (set BUNTING_STANDIN_IMAGES)" >&2; exit 1; }
# shellcheck disable=SC1091
source "$IMAGES/docker-env.sh"
bunting_docker_env
export DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
export DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
"$IMAGES/build.sh" >/dev/null
command -v docker-compose >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null; }
exec node deploy/test/deploy-test.ts
