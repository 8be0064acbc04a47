#!/usr/bin/env bash
# Replaces a running docker-compose deployment's Bunting services with another image, one service at a time, with
# no moment in which a service has nothing serving. docker-compose recreates all of a service's containers at once,
# so for each service a stand-in container on the new image (same network name, same settings) starts first and
# serves beside the old ones, compose then recreates the service on the new image, and the stand-in leaves.
#
#   cd deploy && ./rolling-upgrade.sh IMAGE [docker-compose options, e.g. -p PROJECT]
#
# Then set BUNTING_IMAGE=IMAGE where compose reads it (deploy/.env), so a later `docker-compose up` keeps it.
# Each service migrates its own schema when its first new container starts; the old containers still running
# must tolerate that schema (ARCHITECTURE.md, "Migrations during a rolling upgrade").
set -euo pipefail
image=${1:?usage: rolling-upgrade.sh IMAGE [docker-compose options]}
shift
compose=(docker-compose "$@")
# Consumers before producers: the services that read events first, admin-api next, the SDK edge last.
services=(event-log insights signals admin-api frontend-api)
export BUNTING_IMAGE=$image

say() { echo "[rolling-upgrade] $*"; }
# Ready: the container's own /ready answers, asked inside it every second. Docker's health status would say the same
# only at the compose file's next check (every 10 s), which made each service's upgrade wait up to 10 s for nothing.
probe="fetch('http://127.0.0.1:4242/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ready() { docker exec "$1" node -e "$probe" >/dev/null 2>&1; }
wait_ready() {
  local deadline=$((SECONDS + 180)) container
  for container in "$@"; do
    until ready "$container"; do
      if ((SECONDS >= deadline)); then say "container ${container:0:12} is not ready after 180 s"; return 1; fi
      sleep 1
    done
  done
}

docker image inspect "$image" >/dev/null
container_env=$(mktemp)
stand_in=
# A stand-in left by a failure would hold the network: it goes too (the old containers keep serving).
trap 'rm -f "$container_env" "$container_env.image"; [ -z "$stand_in" ] || docker rm -f "$stand_in" >/dev/null 2>&1 || true' EXIT

for service in "${services[@]}"; do
  mapfile -t old < <("${compose[@]}" ps -q "$service")
  if [ ${#old[@]} -eq 0 ]; then say "$service: not running, left alone"; continue; fi
  reference=${old[0]}
  project=$(docker inspect -f '{{index .Config.Labels "com.docker.compose.project"}}' "$reference")
  network=$(docker inspect -f '{{range $name, $_ := .NetworkSettings.Networks}}{{println $name}}{{end}}' "$reference" | head -n 1)
  # The service's own settings: the container's environment less what its image set (the new image sets its own).
  docker image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$(docker inspect -f '{{.Image}}' "$reference")" >"$container_env.image"
  docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$reference" \
    | awk 'NR == FNR { skip[$0] = 1; next } NF && !($0 in skip)' "$container_env.image" - >"$container_env"
  rm -f "$container_env.image"
  stand_in="${project}_${service}_upgrading"
  say "$service: starting a stand-in on $image"
  docker run -d --name "$stand_in" --network "$network" --network-alias "$service" --env-file "$container_env" \
    --health-cmd "node -e \"$probe\"" \
    --health-interval 2s --health-timeout 3s --health-retries 3 --health-start-period 60s "$image" >/dev/null
  wait_ready "$stand_in"
  say "$service: stand-in ready; recreating ${#old[@]} container(s) on $image"
  "${compose[@]}" up -d --no-deps --no-build --scale "$service=${#old[@]}" "$service" 2>/dev/null
  mapfile -t new < <("${compose[@]}" ps -q "$service")
  wait_ready "${new[@]}"
  docker stop -t 30 "$stand_in" >/dev/null
  docker rm "$stand_in" >/dev/null
  stand_in=
  # The ingress keeps a name's addresses for a second (resolver valid=1s): the next stand-in could be given the
  # address this one freed and, within that second, get requests meant for this service (seen once: admin writes
  # answered 404 by a new frontend-api). Nothing reports that cache's expiry, so its lifetime is waited out.
  sleep 2
  say "$service: upgraded"
done
