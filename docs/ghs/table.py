"""Prints the table of docs/ghs.md from docs/ghs/sweep.jsonl: per family and
n, the mean of GHS's messages of the paper's seven types against the bound
5n lg n + 2|E| the runs checked (and the largest ratio over the trials), its
total and time, and echo's and FloodMax's messages on the same graphs."""
import collections, json, math, sys

path = sys.argv[1] if len(sys.argv) > 1 else "docs/ghs/sweep.jsonl"
rows = collections.defaultdict(list)
for line in open(path):
    r = json.loads(line)
    rows[(r["topology"], r["n"], r["algorithm"])].append(r)
mst = ["Connect", "Initiate", "Test", "Accept", "Reject", "Report", "ChangeRoot"]
fmt = lambda v: "%.3g" % v
mean = lambda xs: sum(xs) / len(xs)
print("| family | n | \\|E\\| | GHS MST messages | 5n lg n + 2\\|E\\| | largest ratio | GHS all messages | GHS time | echo messages | FloodMax messages |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for family in ["gnp", "grid", "torus", "complete"]:
    for n in sorted({k[1] for k in rows if k[0] == family}):
        g = rows[(family, n, "ghs")]
        m = [sum(r["messages_by_type"].get(t, 0) for t in mst) for r in g]
        b = [next(c["expected"] for c in r["checks"] if c["name"].startswith("MST messages <=")) for r in g]
        edges = [(x - 5 * n * math.log2(n)) / 2 for x in b]
        other = lambda alg: fmt(mean([r["messages"] for r in rows[(family, n, alg)]])) if (family, n, alg) in rows else "-"
        print(f"| {family} | {n} | {fmt(mean(edges))} | {fmt(mean(m))} | {fmt(mean(b))} | {max(x / y for x, y in zip(m, b)):.2f} | "
              f"{fmt(mean([r['messages'] for r in g]))} | {fmt(mean([r['time'] for r in g]))} | {other('echo')} | {other('flood-max')} |")
runs = [r for v in rows.values() for r in v]
bad = [r for r in runs if r["outcome"] != "elected" or not all(c["holds"] for c in r["checks"])]
print(f"\n{len(runs)} runs, {len(bad)} with an outcome other than elected or a failed check.")
