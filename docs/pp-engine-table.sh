#!/usr/bin/env bash
# The population-protocol engine table (issue 34): for every protocol and n,
# each engine's CPU time per trial and per interaction on the same seeds, the
# engine auto chose, and the check that auto is never more than 1.5 times
# slower per interaction than the best single engine.
#
#   docs/pp-engine-table.sh > table.md            # defaults below
#   SIZES="1000 10000" PROTOS="pll pll-sym" TRIALS=5 docs/pp-engine-table.sh
#
# Environment: ELECT (the binary; default: go build of ./cmd/elect), SIZES,
# PROTOS (names or protocol files), ENGINES, TRIALS (per cell; default 100
# at n = 10^3, 10 at 10^4, 3 at 10^5 and 10^6, 1 beyond), SEED,
# TIMEOUT (wall seconds per cell; a cell that does not finish shows "-").
# CPU time (user + sys, from /usr/bin/time) is measured, not wall time, so
# that a loaded machine inflates the figures less; the CPU time of starting
# the binary (a run of 4 agents) is subtracted. Exit status 1 when the
# criterion fails in some row.
set -u
cd "$(dirname "$0")/.."
if [ -z "${ELECT:-}" ]; then
	ELECT=$(mktemp -d)/elect
	go build -o "$ELECT" ./cmd/elect || exit 2
fi
SIZES=${SIZES:-"1000 10000 100000 1000000 100000000"}
PROTOS=${PROTOS:-"angluin approx-majority epidemic numbered-known epidemic-term pll pll-sym examples/protocols/angluin.yaml examples/protocols/approx-majority.yaml examples/protocols/exact-majority.yaml"}
ENGINES=${ENGINES:-"agent-array batched null-skipping auto"}
trialsFor() {
	if [ -n "${TRIALS:-}" ]; then echo "$TRIALS"; return; fi
	case $1 in
	1000) echo 100 ;;
	10000) echo 10 ;;
	100000 | 1000000) echo 3 ;;
	*) echo 1 ;;
	esac
}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu() { # cpu seconds of a command; its stdout in $tmp/out
	/usr/bin/time -f "%U %S" -o "$tmp/time" timeout "$TIMEOUT" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	awk '{print $1 + $2}' "$tmp/time" | tail -1
	return $rc
}
base=$(cpu "$ELECT" pp angluin --n 4 --no-states --json)

echo "| protocol | n | engine | trials | CPU s / trial | ns / interaction | auto chose |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
fail=0
for p in $PROTOS; do
	for n in $SIZES; do
		best=""
		autoNs=""
		for e in $ENGINES; do
			trials=$(trialsFor "$n")
			while :; do
				t=$(cpu "$ELECT" pp "$p" --n "$n" --engine "$e" --trials "$trials" --seed "$SEED" --json --no-states)
				ok=$?
				# Too short to time (the clock counts hundredths): ten times the trials.
				if [ $ok -ne 0 ] || [ -n "${TRIALS:-}" ] || [ "$trials" -ge 1000 ] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.3 else 1)' "$t"; then
					break
				fi
				trials=$((trials * 10))
			done
			if [ $ok -ne 0 ]; then
				if grep -q "engine only\|numbers its agents\|must be between\|would need" "$tmp/err"; then
					continue # the engine does not apply
				fi
				echo "| $p | $n | $e | - | > ${TIMEOUT} s wall | - | |"
				[ "$e" = auto ] && autoNs=inf
				continue
			fi
			read -r inter chose < <(python3 -c '
import json, sys
tot, eng = 0, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    tot += r["interactions"]
    if r["engine"] not in eng:
        eng.append(r["engine"])
print(tot, ",".join(eng))' "$tmp/out")
			read -r per ns < <(python3 -c '
import sys
t, base, trials, inter = map(float, sys.argv[1:])
t = max(t - base, 0.001)
print("%.3g %.3g" % (t / trials, t * 1e9 / max(inter, 1)))' "$t" "$base" "$trials" "$inter")
			shown=""
			if [ "$e" = auto ]; then
				shown=$chose
				autoNs=$ns
			elif [ -z "$best" ] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$ns" "$best"; then
				best=$ns
			fi
			echo "| $p | $n | $e | $trials | $per | $ns | $shown |"
		done
		if [ -n "$best" ] && [ -n "$autoNs" ]; then
			if ! python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= 1.5 * float(sys.argv[2]) else 1)' "$autoNs" "$best"; then
				echo "| $p | $n | **auto above 1.5 x best ($autoNs against $best ns)** | | | | |"
				fail=1
			fi
		fi
	done
done
exit $fail
