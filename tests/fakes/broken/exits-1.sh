#!/usr/bin/env bash
# A broken engine (tests/fakes/broken/one-shot.sh): a one-shot call prints the real engine's
# answer, then exits with status 1.
. "$(dirname "$0")/one-shot.sh"
"$real" "$@"
exit 1
