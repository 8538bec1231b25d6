#!/bin/sh
# Test helper of tests/pbrain_match_test.cpp: runs a pbrain engine (the remaining arguments) and
# kills it with SIGKILL once the manager has asked it for its N-th move (BEGIN, TURN or DONE): an
# engine killed mid-game. Usage: pbrain_kill_after.sh N PROGRAM [ARGS...]
n=$1
shift
pidfile=$(mktemp)
trap 'rm -f "$pidfile"' EXIT
k=0
{
  while IFS= read -r line; do
    printf '%s\n' "$line"
    case $line in
      BEGIN* | TURN* | DONE*)
        k=$((k + 1))
        if [ "$k" -ge "$n" ]; then
          while [ ! -s "$pidfile" ]; do sleep 0.01; done
          kill -9 "$(cat "$pidfile")"
          exit 0
        fi
        ;;
    esac
  done
} | {
  # A background command's stdin would be /dev/null: hand it the pipe through fd 3.
  exec 3<&0
  "$@" <&3 3<&- &
  echo $! >"$pidfile"
  wait
}
