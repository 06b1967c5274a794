#!/usr/bin/env bash
# A broken engine (tests/fakes/broken/one-shot.sh): a one-shot call answers an index one past
# the last token of the move list, with status 0.
. "$(dirname "$0")/one-shot.sh"
read -ra tokens <<<"${*: -2:1}"
echo "${#tokens[@]}"
