#!/usr/bin/env bash
# The memory table (issue 42, docs/runtimes.md): for catalog algorithms at
# a couple of sizes, on the simulator and on the goroutine runtime, the
# estimate --mem-limit checks before a run (printed by a run refused at a
# limit of 1 byte) against the run's real peak: the peak RSS of the
# process (/usr/bin/time's maximum resident set size) less the program's
# own (the peak of 'elect run lcr --n 8' on the same runtime), and their
# ratio, which should be at least 1 (an upper bound) and at most 2.
#
#   docs/memory-table.sh > /tmp/table.md
#   RUNS="lcr:100000 echo:grid:300x300" RUNTIMES=sim docs/memory-table.sh
#
# Environment: ELECT (the binary; default: go build of ./cmd/elect), RUNS
# (ALG:N or ALG:TOPOLOGY, then :--FLAG=VALUE, then @sim or @goroutines for
# one runtime only; default the list below), RUNTIMES (sim and/or
# goroutines; default both), TIMEOUT (seconds per run, default 120).
set -u
cd "$(dirname "$0")/.."
if [ -z "${ELECT:-}" ]; then
	ELECT=$(mktemp -d)/elect
	go build -o "$ELECT" ./cmd/elect || exit 2
fi
RINGS="lcr chang-roberts hs peterson franklin dolev-klawe-rodeh higham-przytycka stages-with-feedback lcr-random itai-rodeh probabilistic-franklin time-slice slow-fast"
SPARSE="afek-gafni humblet korach-moran-zaks lmw ring-skip"
GENERAL="echo ghs yoyo peterson-mesh"
if [ -z "${RUNS:-}" ]; then
	RUNS=""
	for a in $RINGS; do RUNS="$RUNS $a:50000 $a:200000"; done
	for a in all-to-all bully; do RUNS="$RUNS $a:500 $a:1500"; done
	# The others hold few messages: on the simulator only larger graphs
	# show them (the goroutine runtime's counters per port, n^2, bound
	# them there).
	for a in $SPARSE; do RUNS="$RUNS $a:1500@goroutines $a:4000@goroutines $a:20000@sim $a:100000@sim"; done
	for a in $GENERAL; do RUNS="$RUNS $a:grid:200x200 $a:grid:300x300"; done
	RUNS="$RUNS flood-max:grid:150x150:--diam=300@sim flood-max:grid:250x250:--diam=500@sim flood-max:grid:100x100:--diam=200@goroutines flood-max:grid:150x150:--diam=300@goroutines hyperelect:16384 hyperelect:131072"
fi
RUNTIMES=${RUNTIMES:-sim goroutines}
TIMEOUT=${TIMEOUT:-120}

# peak KiB of a run (empty when it failed or timed out)
peak() {
	local f
	f=$(mktemp)
	# timeout execs the binary, so the maximum is the run's own; exit
	# status 1 is a run that did not elect, which still ran.
	/usr/bin/time -o "$f" -f %M timeout "$TIMEOUT" "$ELECT" run "$@" --json >/dev/null 2>&1
	[ $? -le 1 ] && tail -1 "$f"
	rm -f "$f"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

echo "| algorithm | n | topology | runtime | estimate MiB | peak less base MiB | estimate / that |"
echo "|---|---|---|---|---|---|---|"
for rt in $RUNTIMES; do
	flags=()
	[ "$rt" = goroutines ] && flags=(--runtime goroutines)
	base=$(peak lcr --n 8 "${flags[@]}")
	for r in $RUNS; do
		case "$r" in
		*@*) [ "${r##*@}" = "$rt" ] || continue; r=${r%@*} ;;
		esac
		alg=${r%%:*}
		arg=${r#*:}
		extra=()
		case "$arg" in
		*:--*) extra=("${arg##*:}"); arg=${arg%:--*} ;;
		esac
		case "$arg" in
		[0-9]*) size=(--n "$arg" "${extra[@]}") ;;
		*) size=(--topology "$arg" "${extra[@]}") ;;
		esac
		# The estimate, from the refusal at a limit of 1 byte, in bytes.
		msg=$("$ELECT" run "$alg" "${size[@]}" "${flags[@]}" --mem-limit 1 2>&1 >/dev/null)
		est=$(echo "$msg" | sed -n 's/.*needs about \([0-9.]*\) \([A-Za-z]*\) of memory.*/\1 \2/p' | awk '{ m = $2 == "GiB" ? 1024 : $2 == "MiB" ? 1 : $2 == "TiB" ? 1048576 : 1 / 1048576; printf "%.1f", $1 * m }')
		p=$(peak "$alg" "${size[@]}" "${flags[@]}")
		n=$("$ELECT" run "$alg" "${size[@]}" --mem-limit 1 2>&1 | sed -n 's/.*n = \([0-9]*\) .*/\1/p')
		topo="${size[*]:1}"
		[ "${size[0]}" = --n ] && topo="default ${extra[*]}"
		if [ -z "$est" ] || [ -z "$p" ]; then
			echo "| $alg | $n | $topo | $rt | ${est:-?} | ${p:+$(mib $((p - base)))}${p:-failed or timed out} | |"
			continue
		fi
		real=$(mib $((p - base)))
		ratio=$(awk -v e="$est" -v r="$real" 'BEGIN { if (r <= 0) print "-"; else printf "%.2f", e / r }')
		echo "| $alg | $n | $topo | $rt | $est | $real | $ratio |"
	done
done
