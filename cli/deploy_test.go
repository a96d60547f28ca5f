package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// renderedCluster runs 'elect cluster init' with a host pattern and reads
// the description and the deployment files it renders.
func renderedCluster(t *testing.T, n int, host string) (dir string, d map[string]any, compose map[string]any, k8s []map[string]any) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "cluster")
	if code, out, errOut := runCLI("cluster", "init", dir, "--alg", "hs", "--n", fmt.Sprint(n), "--host", host, "--base-port", "7400"); code != 0 {
		t.Fatalf("cluster init: exit %d %s%s", code, out, errOut)
	}
	if err := json.Unmarshal(must(os.ReadFile(filepath.Join(dir, "cluster.json"))), &d); err != nil {
		t.Fatal(err)
	}
	compose = readYAML(t, filepath.Join(dir, "compose.yaml"))
	if data, err := os.ReadFile(filepath.Join(dir, "kubernetes.yaml")); err == nil {
		for _, doc := range strings.Split(string(data), "\n---\n") {
			var v map[string]any
			if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
				t.Fatalf("kubernetes.yaml: %v", err)
			}
			k8s = append(k8s, v)
		}
	}
	return dir, d, compose, k8s
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

// TestComposeRenderedByClusterInit: 'cluster init --host node-{i}' renders
// compose.yaml: one service per node, named and reachable as the node's
// host on its port, running 'node /cluster --index I' from a locally built
// image that is never pulled, as the user who ran init (numbers written in:
// no UID=$(id -u), which bash refuses, UID being readonly), mounting only
// the node's own directory.
func TestComposeRenderedByClusterInit(t *testing.T) {
	dir, d, c, _ := renderedCluster(t, 4, "node-{i}")
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
		if got := fmt.Sprint(get(s, "command")); got != fmt.Sprintf("[node /cluster --index %d --listen :7400]", i) {
			t.Errorf("service %s runs %s", name, got)
		}
		if v := fmt.Sprint(get(s, "volumes")); v != fmt.Sprintf("[./node-%d:/cluster:ro]", i) {
			t.Errorf("service %s mounts %s, want only its own directory", name, v)
		}
		if get(s, "image") != "elect:local" || get(s, "pull_policy") != "never" {
			t.Errorf("service %s: image %v, pull_policy %v", name, get(s, "image"), get(s, "pull_policy"))
		}
		if u := get(s, "user"); u != fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()) {
			t.Errorf("service %s runs as %v", name, u)
		}
	}
	text := string(must(os.ReadFile(filepath.Join(dir, "compose.yaml"))))
	if strings.Contains(text, "UID=") || strings.Contains(text, "${") {
		t.Errorf("compose.yaml asks for variables:\n%s", text)
	}
}

// TestKubernetesRenderedByClusterInit: 'cluster init --host
// elect-{i}.elect' renders kubernetes.yaml: a headless Service elect that
// publishes not-ready addresses, and one Job per node (an election runs
// once: no StatefulSet, whose pods restart into CrashLoopBackOff), each a
// pod elect-I under the Service, so answering at elect-I.elect:7400, the
// address init wrote; restartPolicy Never, no retries, the locally built
// image never pulled, and only its own Secret mounted.
func TestKubernetesRenderedByClusterInit(t *testing.T) {
	_, d, _, docs := renderedCluster(t, 5, "elect-{i}.elect")
	nodes := nodesOf(d)
	if len(docs) != 1+len(nodes) {
		t.Fatalf("%d documents for %d nodes", len(docs), len(nodes))
	}
	svc := docs[0]
	if get(svc, "kind") != "Service" || get(svc, "spec", "clusterIP") != "None" || get(svc, "spec", "publishNotReadyAddresses") != true {
		t.Errorf("the first document must be a headless Service publishing not-ready addresses: %v", svc)
	}
	for i, nd := range nodes {
		job := docs[1+i]
		pod := get(job, "spec", "template", "spec")
		want := fmt.Sprintf("%s.%s:%v", get(pod, "hostname"), get(pod, "subdomain"), get(svc, "spec", "ports", 0, "port"))
		if get(job, "kind") != "Job" || nd["address"] != want || get(pod, "subdomain") != get(svc, "metadata", "name") {
			t.Errorf("node %d: cluster init wrote %v; its %v's pod answers at %s", i, nd["address"], get(job, "kind"), want)
		}
		if get(pod, "restartPolicy") != "Never" || fmt.Sprint(get(job, "spec", "backoffLimit")) != "0" {
			t.Errorf("node %d: restartPolicy %v, backoffLimit %v: an election runs once", i, get(pod, "restartPolicy"), get(job, "spec", "backoffLimit"))
		}
		ctr := get(pod, "containers", 0)
		if get(ctr, "image") != "elect:local" || get(ctr, "imagePullPolicy") != "Never" {
			t.Errorf("node %d: image %v pulled %v", i, get(ctr, "image"), get(ctr, "imagePullPolicy"))
		}
		if args := fmt.Sprint(get(ctr, "args")); !strings.HasPrefix(args, fmt.Sprintf("[node /cluster --index %d ", i)) {
			t.Errorf("node %d runs %s", i, args)
		}
		if s := get(pod, "volumes", 0, "secret", "secretName"); s != fmt.Sprintf("elect-node-%d", i) || get(pod, "volumes", 1) != nil {
			t.Errorf("node %d mounts %v; want only its own Secret", i, get(pod, "volumes"))
		}
	}
}

// TestComposeElectsInDocker builds the image and runs a 4-node election
// with the rendered compose.yaml, where a container runtime is present.
func TestComposeElectsInDocker(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("docker is not installed on this machine: the image build and the 4-node Compose election are not run here")
	}
	if testing.Short() {
		t.Skip("short: builds an image")
	}
	dir, _, _, _ := renderedCluster(t, 4, "node-{i}")
	build := exec.Command("docker", "build", "-f", "deploy/Dockerfile", "-t", "elect:local", ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("docker build failed (no daemon or no network?): %v\n%s", err, out)
	}
	up := exec.Command("docker", "compose", "up")
	up.Dir = dir
	out, err := up.CombinedOutput()
	defer exec.Command("docker", "compose", "down").Run()
	if err != nil || !strings.Contains(string(out), `"decision":"elected"`) {
		t.Fatalf("docker compose up: %v\n%s", err, out)
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
