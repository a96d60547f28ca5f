package cluster

import (
	"testing"
)

// testDigest is the digest of the description of the cluster in dir.
func testDigest(t testing.TB, dir string) Digest {
	t.Helper()
	d, cfg, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return DescriptionDigest(d, cfg)
}
