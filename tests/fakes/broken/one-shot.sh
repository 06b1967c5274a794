# tests/fakes/broken/one-shot.sh, sourced by the broken engines beside it: each is the engine
# named by REAL_ENGINE (an absolute path) but for the one-shot call, where it breaks the
# contract in its own way, so that `make test ENGINE_UNDER_TEST=tests/fakes/broken/NAME.sh` shows that
# the tests catch it (tests/README.md).
real=${REAL_ENGINE:?REAL_ENGINE must name the engine that this fake wraps}

# is_one_shot ARGS...: returns 0 if ARGS are a one-shot call (options, then FEN, moves, seconds).
is_one_shot() {
  while [ $# -gt 0 ]; do
    case $1 in
      --depth|--nodes|--threads|--multipv|--level|--hash-file) shift 2 || return 1 ;;
      --verbose) shift ;;
      -*) return 1 ;;
      *) break ;;
    esac
  done
  [ $# -eq 3 ] || return 1
  case $1 in perft|eval|d|bench|params|match|datagen|uci|help) return 1 ;; esac
}

is_one_shot "$@" || exec "$real" "$@"
