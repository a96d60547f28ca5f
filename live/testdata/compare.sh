#!/bin/sh
# compare.sh: the goroutine runtime against the naive goroutine-per-node
# program (live/testdata/naive), whole process, cold, on LCR with decreasing
# IDs: for each n, ROUNDS interleaved runs (elect, naive, elect, naive, ...)
# timed by /usr/bin/time; prints each run and the medians of wall time and
# peak RSS, and their ratios.
#
#   sh live/testdata/compare.sh [ROUNDS] [N ...]     (default: 5 rounds; n = 1000 4000 10000)
set -eu
rounds=${1:-5}
[ $# -gt 0 ] && shift
sizes=${*:-1000 4000 10000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/elect" ./cmd/elect
go build -o "$dir/naive" ./live/testdata/naive
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-6s %-8s %10s %12s\n' n program wall_s peak_MiB
for n in $sizes; do
	: >"$dir/elect.$n"; : >"$dir/naive.$n"
	for r in $(seq "$rounds"); do
		/usr/bin/time -f '%e %M' -o "$dir/t" "$dir/elect" run lcr --n "$n" --ids decreasing --runtime goroutines --json >/dev/null
		cat "$dir/t" >>"$dir/elect.$n"
		/usr/bin/time -f '%e %M' -o "$dir/t" "$dir/naive" "$n" >/dev/null
		cat "$dir/t" >>"$dir/naive.$n"
	done
	for p in elect naive; do
		w=$(cut -d' ' -f1 "$dir/$p.$n" | median)
		m=$(cut -d' ' -f2 "$dir/$p.$n" | median)
		printf '%-6s %-8s %10s %12.1f\n' "$n" "$p" "$w" "$(echo "$m / 1024" | bc -l)"
		eval "${p}_w=$w ${p}_m=$m"
	done
	printf '%-6s %-8s %10.2f %12.2f\n' "$n" "ratio" "$(echo "$elect_w / $naive_w" | bc -l)" "$(echo "$elect_m / $naive_m" | bc -l)"
done
