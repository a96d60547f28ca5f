# Conveniences; the README's commands are what users and CI run.
.PHONY: test short bench verify fuzz

test:
	go test ./...

short:
	go test -short ./...

# The benchmarks quoted in the README's performance section.
bench:
	go test -run XXX -short -bench 'LCR|NLogN' -benchtime 1s -count 5 ./ring
	go test -run XXX -bench 'NLogN/.*/n=1000000$$' -benchtime 2x -count 3 ./ring
	go test -run XXX -short -bench . -benchtime 3x -count 3 ./complete ./general
	go test -run XXX -bench AgentArray -benchtime 20000000x -count 5 ./pp/protocols
	go test -run XXX -short -bench Count -count 3 ./pp/protocols

verify:
	bash .ci/run

fuzz:
	go test -run XXX -fuzz FuzzRunArguments -fuzztime 60s ./cli
	go test -run XXX -fuzz FuzzParse -fuzztime 30s ./ids
	go test -run XXX -fuzz FuzzParseEdgeList -fuzztime 30s ./topology
	go test -run XXX -fuzz 'FuzzParse$$' -fuzztime 30s ./topology
