module github.com/electkit/elect

go 1.26.8

// Direct dependencies, each the maintained, widely used choice for its job:
// the figures of 'elect plot' and 'elect reproduce' (PNG, SVG, PDF) are
// drawn by experiment/plot itself, the PNG with golang.org/x/image (the Go
// team's antialiasing rasteriser, vector, and OpenType reader,
// font/opentype), all text set in Liberation Sans, whose TTF
// codeberg.org/go-fonts/liberation embeds, parsed on the first figure.
// Liberation Sans is the font for the job (issue 44): it is maintained
// (Red Hat's, shipped by every Linux distribution), it has Latin, Greek and
// the mathematical signs a paper on election writes (Θ, α, ≤, ≥, ≠, −, ×,
// ∞), its licence (SIL OFL 1.1) allows embedding it, subset, in documents,
// which the PDF does (experiment/plot/pdffont.go) so that every format
// draws the same text, and its widths are Arial's and Helvetica's, so an
// SVG reader without it keeps the layout with their metric twins (the Go
// fonts, golang.org/x/image/font/gofont, have no such twins in readers'
// systems). They replaced gonum.org/v1/plot
// (issue 32): its package init parsed twelve fonts in every elect process
// and its backends linked go-latex, gg, freetype, fpdf and svgo; without
// it 'elect version' peaks at 9.6 MiB resident instead of 13.1, and 'elect
// run lcr --n 1000 --runtime goroutines' at 12.4-12.7 MiB instead of 16.0-16.2
// against the naive program's 6.0 (docs/performance.md, "Figures without
// gonum/plot"); sigs.k8s.io/yaml (the Kubernetes project's YAML
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
	codeberg.org/go-fonts/liberation v0.5.0
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/vbauerster/mpb/v8 v8.16.2
	go.yaml.in/yaml/v3 v3.0.3
	golang.org/x/image v0.30.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/VividCortex/ewma v1.2.0 // indirect
	github.com/acarl005/stripansi v0.0.0-20180116102854-5a71ef0e047d // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mattn/go-runewidth v0.0.30 // indirect
	github.com/vbauerster/cupwriter v0.0.5 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
