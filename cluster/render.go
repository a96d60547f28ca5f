package cluster

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/electkit/elect/internal/atomicfile"
)

// The deployment files Init renders beside the description.
const (
	ComposeFile    = "compose.yaml"
	KubernetesFile = "kubernetes.yaml"
	// Image is the image the rendered files run: built locally from
	// deploy/Dockerfile (docker build -f deploy/Dockerfile -t elect:local .)
	// and never pulled from a registry.
	Image = "elect:local"
)

// renderCompose is a Docker Compose file for d, to be run from the
// cluster's directory: one service per node, named and reachable as the
// node's host, running as the user who ran init (whose key files only that
// user can read) and mounting only the node's own directory.
func renderCompose(d *Description, uid, gid int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# Rendered by 'elect cluster init' for this cluster (%s, n = %d). Each
# service is one node and mounts only its own directory, node-I: its key,
# its certificate and the CA's certificate. Build the image once, from the
# repository's root, then start the cluster from this directory:
#
#   docker build -f deploy/Dockerfile -t %s .
#   docker compose up
#
# The containers run as the user who ran cluster init (%d:%d), the owner of
# the key files (mode 0600). Each node prints its line and exits when the
# cluster has detected termination (docs/cluster.md).
services:
`, d.Algorithm, d.N, Image, uid, gid)
	for _, nd := range d.Nodes {
		host, port, _ := net.SplitHostPort(nd.Address)
		fmt.Fprintf(&b, `  %s:
    image: %s
    pull_policy: never
    hostname: %s
    user: "%d:%d"
    command: ["node", "/cluster", "--index", "%d", "--listen", ":%s"]
    volumes:
      - ./%s:/cluster:ro
    expose:
      - "%s"
`, host, Image, host, uid, gid, nd.Index, port, nd.Name, port)
	}
	return b.String()
}

// renderKubernetes is a manifest for d: a headless Service that publishes
// the nodes' names before they are ready, and one Job per node, each a
// single pod that runs once (restartPolicy Never, no retry: an election is
// one-shot) with the node's host name under the Service (name.service, the
// address init wrote) and only its own Secret. One Job per node rather than
// one indexed Job: the pods of an indexed Job share one template, so each
// would have to mount every node's Secret, and every node would hold every
// key.
func renderKubernetes(d *Description, service string) string {
	var b strings.Builder
	_, port, _ := net.SplitHostPort(d.Nodes[0].Address)
	fmt.Fprintf(&b, `# Rendered by 'elect cluster init' for this cluster (%s, n = %d): a headless
# Service and one Job per node, each with its own Secret. From this directory:
#
#   docker build -f deploy/Dockerfile -t %s .    (in the repository; then load the
#                                                   image into the cluster: kind load
#                                                   docker-image %s, or minikube image load)
#   for i in $(seq 0 %d); do kubectl create secret generic elect-node-$i --from-file=node-$i/; done
#   kubectl apply -f %s
#   kubectl logs job/elect-0
apiVersion: v1
kind: Service
metadata:
  name: %s
  labels:
    app: elect
spec:
  clusterIP: None
  # Nodes dial each other before they are ready: publish their names at once.
  publishNotReadyAddresses: true
  selector:
    app: elect
  ports:
    - name: election
      port: %s
      targetPort: %s
`, d.Algorithm, d.N, Image, Image, d.N-1, KubernetesFile, service, port, port)
	for _, nd := range d.Nodes {
		host, _, _ := net.SplitHostPort(nd.Address)
		pod, _, _ := strings.Cut(host, ".")
		fmt.Fprintf(&b, `---
apiVersion: batch/v1
kind: Job
metadata:
  name: %s
  labels:
    app: elect
spec:
  backoffLimit: 0
  template:
    metadata:
      labels:
        app: elect
    spec:
      hostname: %s
      subdomain: %s
      restartPolicy: Never
      securityContext:
        runAsUser: 65532
        runAsGroup: 65532
        fsGroup: 65532
      containers:
        - name: node
          image: %s
          imagePullPolicy: Never
          args: ["node", "/cluster", "--index", "%d", "--listen", ":%s", "--timeout", "60s"]
          ports:
            - name: election
              containerPort: %s
          volumeMounts:
            - name: node
              mountPath: /cluster
              readOnly: true
      volumes:
        - name: node
          secret:
            secretName: elect-%s
            # Readable by the pod's group (fsGroup) only, not by others.
            defaultMode: 0440
`, pod, pod, service, Image, nd.Index, port, port, nd.Name)
	}
	return b.String()
}

// writeDeployFiles renders, into dir, the Compose file when every node has
// a host name of its own (a --host pattern such as node-{i}), and the
// Kubernetes manifest when besides every host is NAME.SERVICE on one port
// (elect-{i}.elect).
func writeDeployFiles(dir string, d *Description) error {
	hosts := map[string]bool{}
	for _, nd := range d.Nodes {
		host, _, _ := net.SplitHostPort(nd.Address)
		if net.ParseIP(host) != nil || hosts[host] {
			return nil // nodes on one machine: 'cluster up' runs them
		}
		hosts[host] = true
	}
	if err := atomicfile.WriteFileMode(filepath.Join(dir, ComposeFile), []byte(renderCompose(d, os.Getuid(), os.Getgid())), 0o644); err != nil {
		return err
	}
	service := ""
	for i, nd := range d.Nodes {
		host, port, _ := net.SplitHostPort(nd.Address)
		_, svc, ok := strings.Cut(host, ".")
		_, port0, _ := net.SplitHostPort(d.Nodes[0].Address)
		if !ok || svc == "" || strings.Contains(svc, ".") || port != port0 || i > 0 && svc != service {
			return nil // not the shape a headless Service gives
		}
		service = svc
	}
	return atomicfile.WriteFileMode(filepath.Join(dir, KubernetesFile), []byte(renderKubernetes(d, service)), 0o644)
}
