#!/usr/bin/env bash
# P_LL at n = 10^9 (issue 34): the wall and CPU time of each of the 100
# trials of 'elect pp pll --n 1000000000 --seed 1 --trials 100', one process
# per trial, and their median, 90th percentile and maximum.
#
#   docs/pll-1e9-times.sh run [i/k] > shard-i.tsv    # the trials of shard i of k, 1 <= i <= k (all: 1/1)
#   docs/pll-1e9-times.sh summary shard-*.tsv        # median, p90, max
#
# The shard's trials are those 'elect sweep --shard i/k' runs (every k-th
# trial starting at the i-th); their seeds come from the same sweep at a
# small n (a trial's seed does not depend on n), and each runs alone as
# 'elect pp pll --n 1000000000 --seed SEED'. Environment: ELECT (the binary;
# default: go build of ./cmd/elect), N (default 1000000000), TRIALS (100),
# SEED (1), PROTO (pll). Output columns: trial seed, interactions, parallel
# time, engine, wall s, CPU s (user + sys).
set -eu
cd "$(dirname "$0")/.."
N=${N:-1000000000}
TRIALS=${TRIALS:-100}
SEED=${SEED:-1}
PROTO=${PROTO:-pll}
case ${1:-} in
run)
	if [ -z "${ELECT:-}" ]; then
		ELECT=$(mktemp -d)/elect
		go build -o "$ELECT" ./cmd/elect
	fi
	shard=${2:-1/1}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	"$ELECT" sweep "pp:$PROTO" --n 1000 --trials "$TRIALS" --seed "$SEED" --shard "$shard" |
		python3 -c 'import json, sys; [print(json.loads(l)["seed"]) for l in sys.stdin]' >"$tmp/seeds"
	printf 'seed\tinteractions\tparallel_time\tengine\twall_s\tcpu_s\n'
	while read -r s; do
		/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$ELECT" pp "$PROTO" --n "$N" --seed "$s" --json --no-states >"$tmp/out"
		python3 - "$tmp/out" "$tmp/time" "$s" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
wall, user, sys_ = map(float, open(sys.argv[2]).read().split()[-3:])
print("%s\t%d\t%.3f\t%s\t%.2f\t%.2f" % (sys.argv[3], r["interactions"], r["parallel_time"], r["engine"], wall, user + sys_))
PY
	done <"$tmp/seeds"
	;;
summary)
	shift
	python3 - "$@" <<'PY'
import sys
rows = []
for f in sys.argv[1:]:
    for line in open(f):
        if line.startswith("seed"):
            continue
        rows.append(line.split("\t"))
def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]
for col, name in ((4, "wall s"), (5, "CPU s")):
    xs = [float(r[col]) for r in rows]
    print("%s over %d trials: median %.1f, p90 %.1f, max %.1f" % (name, len(xs), q(xs, 0.5), q(xs, 0.9), max(xs)))
PY
	;;
*)
	sed -n '2,17p' "$0"
	exit 2
	;;
esac
