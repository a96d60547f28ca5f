#!/bin/sh
# The GHS sweep of docs/ghs.md: ghs, echo and flood-max on G(n,p) with
# p = 2 ln n / n, square grids, square tori and complete graphs, then one
# figure per family. Run from the repository root:  nice sh docs/ghs/sweep.sh
# (about ten minutes on two shared cores). ELECT overrides the command.
set -eu
ELECT=${ELECT:-go run ./cmd/elect}
out=docs/ghs
: > $out/sweep.jsonl
add() { # add ALGORITHMS TOPOLOGY N TRIALS: one sweep, its topology renamed to its family
	family=$(echo "$2" | sed -E 's/^(gnp|grid|torus):.*/\1/')
	$ELECT sweep "$1" --topology "$2" --n "$3" --trials "$4" --seed 1 |
		sed -E "s/\"topology\":\"[^\"]*\"/\"topology\":\"$family\"/" >> $out/sweep.jsonl
}
for n in 256 512 1024 2048 4096 8192 16384 32768 65536 100000; do
	p=$(awk -v n=$n 'BEGIN { printf "%.6g", 2 * log(n) / n }')
	trials=3; [ $n -gt 16384 ] && trials=2
	algs=ghs,echo; [ $n -le 2048 ] && algs=ghs,echo,flood-max
	add $algs gnp:$p $n $trials
done
for side in 16 23 32 45 64 91 128 181 256 316; do
	n=$((side * side))
	trials=3; [ $n -gt 16384 ] && trials=2
	algs=ghs,echo; [ $n -le 4096 ] && algs=ghs,echo,flood-max
	add $algs grid:${side}x$side $n $trials
	add $algs torus:${side}x$side $n $trials
done
for n in 64 128 256 512 1024 2048 4096; do
	algs=ghs,echo; [ $n -le 256 ] && algs=ghs,echo,flood-max
	[ $n -ge 4096 ] && algs=ghs # echo's waves from all 4096 nodes need more memory than the machine gave (killed)
	add $algs complete $n 2
done
for family in gnp grid torus complete; do
	grep "\"topology\":\"$family\"" $out/sweep.jsonl > $out/$family.jsonl
	$ELECT plot $out/$family.jsonl --measure messages --curves "n lg n,n^2" --size 6x4in \
		--title "messages on $family: ghs, echo, flood-max, with their declared bounds" --out $out/$family.png,$out/$family.svg
	rm $out/$family.jsonl
done
