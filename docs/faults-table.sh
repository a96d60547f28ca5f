#!/usr/bin/env bash
# The faults table (issue 36, docs/faults-table.md): for every algorithm of
# the catalog, at n = N, what each fault does to it,
#   - from the checker (exact): `elect check ALG --n N --faults F --json`,
#     every ID assignment and every schedule with the faults the budget F
#     allows: the verdict, the length of the shortest counterexample, the
#     states (synchronous algorithms: the runs, of distinct fault schedules or, when a fault did not happen, of a smaller one) and seconds;
#   - from a sweep (a rate): `elect sweep ALG --n N --faults F --trials T`,
#     random IDs, seeds 1..T, faults drawn from the seed: the runs whose
#     election failed (outcome other than elected; bounds aside, as in the
#     checker);
# and one counterexample each, written to docs/faults-table/ALG-F.jsonl
# (a synchronous run's trace made by rerunning it), with the command that
# replays it and the one that shows it.
#
#   docs/faults-table.sh > docs/faults-table.md
#   ALGS="lcr bully" FAULTS="loss:k=1" N=3 docs/faults-table.sh
#
# Environment: ELECT (the binary; default: go build of ./cmd/elect), ALGS
# (default: every algorithm of 'elect list'), FAULTS (default: loss:k=1
# dup:k=1 crash:k=1 crash:k=2), N (default 4), TRIALS (default 100),
# MAXSTATES (per configuration; default 200000: a check that reaches it is
# "incomplete"), TIMEOUT (seconds per check; default 600), DIR (where the
# counterexamples go; default docs/faults-table). The whole table takes
# about 16 minutes of wall time (5 of CPU) on a loaded 2-core machine.
set -u
cd "$(dirname "$0")/.."
if [ -z "${ELECT:-}" ]; then
	ELECT=$(mktemp -d)/elect
	go build -o "$ELECT" ./cmd/elect || exit 2
fi
N=${N:-4}
TRIALS=${TRIALS:-100}
FAULTS=${FAULTS:-"loss:k=1 dup:k=1 crash:k=1 crash:k=2"}
MAXSTATES=${MAXSTATES:-200000}
TIMEOUT=${TIMEOUT:-600}
DIR=${DIR:-docs/faults-table}
ALGS=${ALGS:-$("$ELECT" list --json | jq -r .name)}
mkdir -p "$DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| algorithm | tolerates | fault | check: verdict | shortest | states | seconds | sweep: election failed | counterexample (replay; view) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for alg in $ALGS; do
	tol=$("$ELECT" list --json | jq -r --arg a "$alg" 'select(.name == $a) | .tolerates')
	for f in $FAULTS; do
		name="$alg-${f//[:=]/}"
		ce="$DIR/$name.jsonl"
		rm -f "$ce"
		timeout "$TIMEOUT" "$ELECT" check "$alg" --n "$N" --faults "$f" --max-states "$MAXSTATES" --workers 1 --json --counterexample "$ce" >"$tmp/check" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 124 ] || ! jq -e . "$tmp/check" >/dev/null 2>&1; then
			verdict="did not finish in ${TIMEOUT} s"
			shortest="" states="" secs="" example=""
		else
			verdict=$(jq -r .verdict "$tmp/check")
			states=$(jq -r .states "$tmp/check")
			secs=$(jq -r '.seconds * 100 | round / 100' "$tmp/check")
			shortest=$(jq -r '.counterexample_steps // empty' "$tmp/check")
			delivery=$(jq -r .delivery "$tmp/check")
			prop=$(jq -r '.property // empty' "$tmp/check")
			[ -n "$prop" ] && verdict="$verdict ($prop)"
			if [ -n "$shortest" ]; then
				if [ "$delivery" = sync ]; then
					if [ "$prop" = non-termination ]; then
						shortest="$shortest events (the limit)"
					else
						shortest="$shortest events"
					fi
				else
					shortest="$shortest steps"
				fi
			fi
			replay=$(jq -r '.replay // empty' "$tmp/check")
			example=""
			if [ -n "$replay" ]; then
				if [ "$delivery" = sync ]; then
					# A synchronous run has no other schedule: rerun it
					# with a trace, for the viewer.
					${replay/#elect/$ELECT} --trace "$ce" >/dev/null 2>&1
					replay="$replay --trace $ce"
				fi
				example="\`$replay\`; \`elect view $ce\`"
			fi
		fi
		"$ELECT" sweep "$alg" --n "$N" --faults "$f" --trials "$TRIALS" --workers 1 >"$tmp/sweep" 2>/dev/null
		runs=$(jq -s 'length' "$tmp/sweep" 2>/dev/null || echo 0)
		failed=$(jq -s '[.[] | select(.outcome != "elected")] | length' "$tmp/sweep" 2>/dev/null || echo "")
		outcomes=$(jq -rs '[.[] | select(.outcome != "elected") | .outcome] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' "$tmp/sweep" 2>/dev/null)
		rate="$failed of $runs"
		[ -n "$outcomes" ] && rate="$rate ($outcomes)"
		echo "| \`$alg\` | $tol | \`$f\` | $verdict | $shortest | $states | $secs | $rate | $example |"
	done
done
