module github.com/electkit/elect

go 1.26.8

// Direct dependencies, each the maintained, widely used choice for its job:
// gonum's plot draws the figures of 'elect plot' and 'elect reproduce'
// (PNG and SVG, no cgo); sigs.k8s.io/yaml (the Kubernetes project's YAML
// reader) is used only by the tests that check deploy/ against 'elect
// cluster init'; chromedp (with its protocol types, cdproto), the Go
// project most used to drive Chrome through the DevTools protocol, is used
// only by the tests of package view, which load the viewer's page in
// Chromium and check what it shows; go.yaml.in/yaml/v3 (the YAML
// organisation's maintained yaml.v3, which sigs.k8s.io/yaml's family
// already pulls in) reads population protocol files (pp/ppfile): its
// yaml.Node keeps the line of every value, so validation errors name the
// line; vbauerster/mpb, a maintained and widely used Go progress-bar
// library, draws the progress bars of long runs and sweeps on a terminal,
// with its speed-based estimates of the time left.
require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/vbauerster/mpb/v8 v8.16.2
	go.yaml.in/yaml/v3 v3.0.3
	gonum.org/v1/plot v0.17.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/VividCortex/ewma v1.2.0 // indirect
	github.com/acarl005/stripansi v0.0.0-20180116102854-5a71ef0e047d // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/mattn/go-runewidth v0.0.30 // indirect
	github.com/vbauerster/cupwriter v0.0.5 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
