#!/usr/bin/env bash
# The TCP cluster as users meet it (issue 43, docs/performance.md): for LCR
# on decreasing IDs (n(n+1)/2 messages, the most LCR sends) at n = 16, 64
# and 256 on loopback, 'elect cluster up' (one process per node) beside the
# in-process benchmark of the same run (BenchmarkTCPLCRDecreasing: every
# node on goroutines of one process, with its own sockets and TLS), in one
# run, the two interleaved round by round. For each: the whole wall time,
# the messages per second of the election phase (from the first message a
# node sent to the last one a node received, by the nodes' clocks) and, for
# 'cluster up', the nodes' peak memory (VmHWM, which counts the program's
# pages every node shares, and their own anonymous memory at their end),
# and the memory 'cluster up' estimates for its --mem-limit check. Medians
# over the rounds; the machine's load average before and after.
#
#   docs/cluster-table.sh > /tmp/table.md
#   SIZES="16 64" ROUNDS=5 docs/cluster-table.sh
#
# Environment: ELECT (the binary; default: go build of ./cmd/elect), SIZES
# (default 16 64 256), ROUNDS (default 3), TIMEOUT (each node's --timeout,
# default 60s: a loaded machine starts 256 processes slowly).
set -u
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${ELECT:-}" ]; then
	ELECT=$work/elect
	go build -o "$ELECT" ./cmd/elect || exit 2
fi
go test -c -o "$work/cluster.test" ./cluster || exit 2
SIZES=${SIZES:-16 64 256}
ROUNDS=${ROUNDS:-3}
TIMEOUT=${TIMEOUT:-60s}

# field NAME FILE: the first number after "NAME": in FILE.
field() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
# inner OBJECT NAME FILE: NAME's number inside the object "OBJECT":{...}.
inner() { grep -o "\"$1\":{[^}]*}" "$3" | grep -o "\"$2\":[0-9.e+-]*" | cut -d: -f2; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
num() { awk -v x="$1" -v f="$2" 'BEGIN { printf f, x }'; }

load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
for n in $SIZES; do
	"$ELECT" cluster init "$work/c$n" --alg lcr --n "$n" --ids decreasing --base-port 0 >/dev/null || exit 2
	# The estimate: printed by a refusal at a limit of one byte.
	"$ELECT" cluster up "$work/c$n" --mem-limit 1 2>&1 | grep -o 'needs about [0-9.]* [KMGT]*i*B' | sed 's/needs about //' >"$work/estimate$n"
done
for round in $(seq "$ROUNDS"); do
	for n in $SIZES; do
		out=$work/up$n.$round
		/usr/bin/time -f %e -o "$out.time" "$ELECT" cluster up "$work/c$n" --json --timeout "$TIMEOUT" >"$out.json" 2>"$out.err"
		if grep -q '"outcome":"elected"' "$out.json"; then
			cat "$out.time" >>"$work/wall$n"
			field election_messages_per_second "$out.json" >>"$work/rate$n"
			inner node_peak_bytes median "$out.json" >>"$work/peakmed$n"
			inner node_peak_bytes max "$out.json" >>"$work/peakmax$n"
			inner node_anon_bytes median "$out.json" >>"$work/anonmed$n"
			inner node_anon_bytes max "$out.json" >>"$work/anonmax$n"
		else
			echo "cluster up at n = $n, round $round: $(head -c 300 "$out.err")" >&2
			echo x >>"$work/failed$n"
		fi
		"$work/cluster.test" -test.run '^$' -test.bench "BenchmarkTCPLCRDecreasing/n=$n\$" -test.benchtime 1x >"$out.bench" 2>&1
		awk '/^BenchmarkTCPLCRDecreasing/ { for (i = 1; i < NF; i++) { if ($(i+1) == "s/run") print $i > "'"$work/bwall$n"'.tmp"; if ($(i+1) == "election-messages/s") print $i > "'"$work/brate$n"'.tmp" } }' "$out.bench"
		cat "$work/bwall$n.tmp" >>"$work/bwall$n" 2>/dev/null
		cat "$work/brate$n.tmp" >>"$work/brate$n" 2>/dev/null
		rm -f "$work"/*.tmp
	done
	"$work/cluster.test" -test.run '^$' -test.bench 'BenchmarkTCP$' -test.benchtime 1x 2>&1 |
		awk '/^BenchmarkTCP-/ { for (i = 1; i < NF; i++) if ($(i+1) == "messages/s") print $i }' >>"$work/relay"
done

echo "Load average before: $load; after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null). Medians of $ROUNDS rounds."
echo
echo "| n | messages | cluster up: wall s | election msgs/s | node VmHWM MiB median / max | node own MiB median / max | up's estimate | in process: wall s | election msgs/s |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
	failed=""
	[ -s "$work/failed$n" ] && failed=" ($(wc -l <"$work/failed$n") of $ROUNDS failed)"
	row="| $n | $((n * (n + 1) / 2)) | $(num "$(median <"$work/wall$n" 2>/dev/null)" %.2f)$failed"
	row="$row | $(num "$(median <"$work/rate$n" 2>/dev/null)" %.0f)"
	row="$row | $(mib "$(median <"$work/peakmed$n" 2>/dev/null)") / $(mib "$(median <"$work/peakmax$n" 2>/dev/null)")"
	row="$row | $(mib "$(median <"$work/anonmed$n" 2>/dev/null)") / $(mib "$(median <"$work/anonmax$n" 2>/dev/null)")"
	row="$row | $(cat "$work/estimate$n")"
	row="$row | $(num "$(median <"$work/bwall$n" 2>/dev/null)" %.2f) | $(num "$(median <"$work/brate$n" 2>/dev/null)" %.0f) |"
	echo "$row"
done
echo
echo "BenchmarkTCP (16 nodes in process, 960,000 token messages): $(num "$(median <"$work/relay")" %.0f) messages/s (median of $ROUNDS)."
