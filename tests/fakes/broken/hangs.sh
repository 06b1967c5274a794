#!/usr/bin/env bash
# A broken engine (tests/fakes/broken/one-shot.sh): a one-shot call never answers.
. "$(dirname "$0")/one-shot.sh"
exec sleep 100000
