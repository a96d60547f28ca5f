package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// deployInit runs the 'elect cluster init' command written in a deploy
// file's comments into a temporary directory and returns the description.
func deployInit(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#\s+elect (cluster init \S+ .*)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s has no 'elect cluster init' command in its comments", file)
	}
	args := strings.Fields(strings.ReplaceAll(string(m[1]), "'", ""))
	dir := filepath.Join(t.TempDir(), "cluster")
	args[2] = dir
	if code, out, errOut := runCLI(args...); code != 0 {
		t.Fatalf("%s: %v: exit %d %s%s", file, args, code, out, errOut)
	}
	desc, err := os.ReadFile(filepath.Join(dir, "cluster.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(desc, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func readYAML(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

func get(v any, path ...any) any {
	for _, k := range path {
		switch key := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[key]
		case int:
			s, _ := v.([]any)
			if key >= len(s) {
				return nil
			}
			v = s[key]
		}
	}
	return v
}

func nodesOf(d map[string]any) []map[string]any {
	var out []map[string]any
	for _, n := range d["nodes"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// TestComposeAgreesWithClusterInit: Docker cannot run here, so the test
// reads deploy/compose.yaml and runs the cluster init its comment gives:
// one service per node, named as the node's host, listening on the node's
// port, running 'node /cluster --index I' with the cluster mounted there.
func TestComposeAgreesWithClusterInit(t *testing.T) {
	d := deployInit(t, "../deploy/compose.yaml")
	c := readYAML(t, "../deploy/compose.yaml")
	services := get(c, "services").(map[string]any)
	nodes := nodesOf(d)
	if len(services) != len(nodes) {
		t.Fatalf("%d services for %d nodes", len(services), len(nodes))
	}
	for i, nd := range nodes {
		name := fmt.Sprintf("node-%d", i)
		s := services[name]
		if s == nil {
			t.Fatalf("no service %s", name)
		}
		if got, want := fmt.Sprintf("%s:%v", get(s, "hostname"), get(s, "expose", 0)), nd["address"]; got != want {
			t.Errorf("service %s is %s; cluster init gave node %d the address %s", name, got, i, want)
		}
		if got := fmt.Sprint(get(s, "command")); got != fmt.Sprintf("[node /cluster --index %d]", i) {
			t.Errorf("service %s runs %s", name, got)
		}
		if v := fmt.Sprint(get(s, "volumes", 0)); v != "./cluster:/cluster:ro" {
			t.Errorf("service %s mounts %s; the cluster init command writes deploy/cluster, mounted at /cluster", name, v)
		}
		if df := fmt.Sprint(get(s, "build", "dockerfile")); df != "deploy/Dockerfile" || get(s, "build", "context") != ".." {
			t.Errorf("service %s builds %s", name, df)
		}
	}
	if !strings.Contains(string(must(os.ReadFile("../deploy/compose.yaml"))), "cluster init deploy/cluster ") {
		t.Errorf("the compose file's init command does not write deploy/cluster, which it mounts")
	}
}

// TestKubernetesAgreesWithClusterInit: the StatefulSet's pods elect-I and
// the headless Service elect give node I the name elect-I.elect, which the
// cluster init in the Service's comment writes; the replicas, port, args
// and the Secret's mount agree.
func TestKubernetesAgreesWithClusterInit(t *testing.T) {
	d := deployInit(t, "../deploy/k8s/service.yaml")
	svc := readYAML(t, "../deploy/k8s/service.yaml")
	sts := readYAML(t, "../deploy/k8s/statefulset.yaml")
	nodes := nodesOf(d)
	if get(svc, "spec", "clusterIP") != "None" || get(sts, "spec", "serviceName") != get(svc, "metadata", "name") {
		t.Errorf("the Service must be headless and the StatefulSet's serviceName")
	}
	if r := get(sts, "spec", "replicas"); fmt.Sprint(r) != fmt.Sprint(len(nodes)) {
		t.Errorf("%v replicas for %d nodes", r, len(nodes))
	}
	for i, nd := range nodes {
		want := fmt.Sprintf("%s-%d.%s:%v", get(sts, "metadata", "name"), i, get(svc, "metadata", "name"), get(svc, "spec", "ports", 0, "port"))
		if nd["address"] != want {
			t.Errorf("node %d: cluster init wrote %v; the StatefulSet's pod answers at %s", i, nd["address"], want)
		}
	}
	ctr := get(sts, "spec", "template", "spec", "containers", 0)
	args := fmt.Sprint(get(ctr, "args"))
	if !strings.HasPrefix(args, "[node /cluster --index hostname") {
		t.Errorf("the container runs %s", args)
	}
	if p := get(ctr, "ports", 0, "containerPort"); fmt.Sprint(p) != fmt.Sprint(get(svc, "spec", "ports", 0, "targetPort")) {
		t.Errorf("container port %v, Service target port %v", p, get(svc, "spec", "ports", 0, "targetPort"))
	}
	if get(ctr, "volumeMounts", 0, "mountPath") != "/cluster" || get(sts, "spec", "template", "spec", "volumes", 0, "secret", "secretName") != "elect-cluster" {
		t.Errorf("the cluster directory must come from the Secret elect-cluster at /cluster")
	}
}

// TestDockerfile: a static build of the command, in an empty image.
func TestDockerfile(t *testing.T) {
	data := string(must(os.ReadFile("../deploy/Dockerfile")))
	for _, want := range []string{"CGO_ENABLED=0", "./cmd/elect", "FROM scratch", `ENTRYPOINT ["/elect"]`} {
		if !strings.Contains(data, want) {
			t.Errorf("deploy/Dockerfile lacks %q", want)
		}
	}
	if _, err := os.Stat("../cmd/elect"); err != nil {
		t.Error(err)
	}
	froms := regexp.MustCompile(`(?m)^FROM `).FindAllString(data, -1)
	if len(froms) < 2 || !slices.Contains(strings.Fields(data), "--from=build") {
		t.Errorf("deploy/Dockerfile should be a multi-stage build")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
