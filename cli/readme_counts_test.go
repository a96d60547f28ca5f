package cli

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/electkit/elect/experiment/claims"
)

// readmeReproduceCounts is the README's sentence that counts the
// reproductions and their claims.
var readmeReproduceCounts = regexp.MustCompile("`elect reproduce` checks (\\d+) reproductions and (\\d+) claims, all passing")

// readmeCounts returns the numbers of reproductions and claims the README
// states.
func readmeCounts(t *testing.T) (reproductions, claimCount int) {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := readmeReproduceCounts.FindSubmatch(data)
	if m == nil {
		t.Fatalf("README.md does not say how many reproductions and claims elect reproduce checks (%s)", readmeReproduceCounts)
	}
	reproductions, _ = strconv.Atoi(string(m[1]))
	claimCount, _ = strconv.Atoi(string(m[2]))
	return reproductions, claimCount
}

// TestReadmeCountsTheReproductions (issue 45: "README says 33
// reproductions where reproduce --list has 36"): the README's count of
// reproductions is the registry's. Its count of claims is compared with a
// whole run's in TestReproduceQuickPasses (readmeClaimsAgree).
func TestReadmeCountsTheReproductions(t *testing.T) {
	if got, _ := readmeCounts(t); got != len(claims.All()) {
		t.Errorf("README.md says %d reproductions; elect reproduce --list has %d", got, len(claims.All()))
	}
}

// readmeClaimsAgree requires the README's counts of reproductions and
// claims to be those of out, the output of a run of every reproduction
// ("reproduce: 36 reproductions, 188 claims: ...").
func readmeClaimsAgree(t *testing.T, out string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^reproduce: (\d+) reproductions, (\d+) claims: (\d+) passed`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary line in the output of elect reproduce:\n%s", out)
	}
	reproductions, claimCount := readmeCounts(t)
	if m[1] != strconv.Itoa(reproductions) || m[2] != strconv.Itoa(claimCount) || m[3] != m[2] {
		t.Errorf("README.md says %d reproductions and %d claims, all passing; elect reproduce ran %s reproductions, %s claims, %s passed",
			reproductions, claimCount, m[1], m[2], m[3])
	}
}
