package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment/claims"
	"github.com/electkit/elect/experiment/plot"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
)

func init() {
	register(command{name: "reproduce", summary: "reproduce the seed documents' quantitative claims (elect reproduce --list)", run: reproduceCommand})
}

const reproduceUsage = `usage: elect reproduce [NAME...] [flags]
       elect reproduce --list

Runs the named reproductions (all when none is named): each checks claims of
the seed documents against runs of the implementations and prints a table of
claim, source, rule, expected, measured and verdict, and writes its figures
(PNG and SVG) and the table (markdown) to --out. A claim whose algorithm does
not exist yet is listed as pending. Rules: exact (every run equals the
formula), bound (every run within it), statistical (within 4 standard errors),
asymptotic (mean / f(n) varies by at most 25% over the three largest sizes).

--quick runs small versions (all of them in under a minute on two cores).
The full set takes longer: more than 4 minutes on two cores and up to
1.4 GB of memory (docs/experiments.md); a progress bar on standard error
(when it is a terminal) shows each reproduction's runs, and a last line
counts the claims that passed, failed and are pending, with the time.

Exit status: 0 when no claim failed, 1 when one did, 2 for bad input.

examples:
  elect reproduce --list
  elect reproduce chang-roberts --quick
  elect reproduce --out docs/reproduce

flags:
`

func reproduceCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", reproduceUsage)
	list := fs.Bool("list", false, "list the reproductions and exit")
	quick := fs.Bool("quick", false, "run the small versions")
	out := fs.String("out", "elect-reproduce", "directory for the figures and tables (\"\": write none)")
	workers := fs.Int("workers", runtime.NumCPU(), "runs in parallel")
	seed := fs.Uint64("seed", 1, "master seed")
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if *list {
		if len(pos) > 0 {
			return usagef("reproduce: --list takes no names")
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, r := range claims.All() {
			status := ""
			if miss := r.Missing(); len(miss) > 0 {
				status = "\tpending: needs " + strings.Join(miss, ", ")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s%s\n", r.Name, r.Title, catalog.CiteBrief(r.Source), status)
		}
		return tw.Flush()
	}
	if *workers < 1 || *workers > 4096 {
		return usagef("reproduce: --workers must be between 1 and 4096, got %d", *workers)
	}
	var todo []*claims.Reproduction
	for _, name := range pos {
		r, ok := claims.Lookup(name)
		if !ok {
			return usagef("reproduce: unknown reproduction %q%s; 'elect reproduce --list' shows them", name, suggest(name, claims.Names()))
		}
		todo = append(todo, r)
	}
	if len(todo) == 0 {
		todo = claims.All()
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return usagef("reproduce: cannot create %s: %v", *out, errors.Unwrap(err))
		}
	}
	ctx := cmdio.Watch()
	env := claims.Env{Quick: *quick, Workers: *workers, Seed: *seed}
	failed := false
	began := time.Now()
	verdicts := map[claims.Verdict]int{}
	for k, r := range todo {
		start := time.Now()
		bar := newProgressBar(stderr, fmt.Sprintf("reproduce %s (%d of %d)", r.Name, k+1, len(todo)), progressScale, "of this sweep")
		env.Progress = nil
		if bar != nil {
			env.Progress = func(done, total int, wDone, wTotal float64) {
				bar.set(int64(progressScale*wDone/max(wTotal, 1e-300)), fmt.Sprintf("%d/%d runs", done, total))
			}
		}
		rep, err := r.Run(ctx, env)
		bar.finish()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintf(stderr, "elect: reproduce %s; the reproductions above are complete\n", stoppedBy())
				return errInterrupted
			}
			return fmt.Errorf("reproduce %s: %w", r.Name, err)
		}
		command := reproduceCommandLine(r.Name, *quick, *seed, *out)
		fmt.Fprintf(stdout, "== %s: %s (%s)\n", r.Name, r.Title, time.Since(start).Round(time.Millisecond))
		writeClaimTable(stdout, rep.Rows)
		for _, row := range rep.Rows {
			failed = failed || row.Verdict == claims.Fail
			verdicts[row.Verdict]++
		}
		if *out != "" {
			files, err := writeReproduction(*out, r, rep, command)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %s\n", strings.Join(files, ", "))
		}
		fmt.Fprintln(stdout)
	}
	plural := func(k int, word string) string {
		if k == 1 {
			return "1 " + word
		}
		return fmt.Sprintf("%d %ss", k, word)
	}
	fmt.Fprintf(stdout, "reproduce: %s, %s: %d passed, %d failed, %d pending (%s)\n",
		plural(len(todo), "reproduction"), plural(verdicts[claims.Pass]+verdicts[claims.Fail]+verdicts[claims.Pending], "claim"),
		verdicts[claims.Pass], verdicts[claims.Fail], verdicts[claims.Pending], time.Since(began).Round(time.Second))
	if failed {
		return errFailed
	}
	return nil
}

func reproduceCommandLine(name string, quick bool, seed uint64, out string) string {
	c := "elect reproduce " + name
	if quick {
		c += " --quick"
	}
	if seed != 1 {
		c += fmt.Sprintf(" --seed %d", seed)
	}
	return c + " --out " + out
}

// writeClaimTable prints a reproduction's table for a terminal.
func writeClaimTable(w io.Writer, rows []claims.Row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "verdict\tclaim\tsource\trule\texpected\tmeasured")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Verdict, r.Claim, catalog.CiteBrief(r.Source), r.Rule, r.Expected, r.Measured)
	}
	tw.Flush()
}

// The reproductions' figures are 5 x 3.4 in: a page's width at their type
// size (9 pt), with room for a legend of up to eight series and their
// bounds.
const reproduceWidth, reproduceHeight = 5, 3.4

// writeReproduction writes NAME.md (the table and the command) and each
// figure as NAME[-k].png and .svg.
func writeReproduction(dir string, r *claims.Reproduction, rep *claims.Report, command string) ([]string, error) {
	var files []string
	var md strings.Builder
	fmt.Fprintf(&md, "# %s\n\n%s (%s).\n\nMade with `%s`.\n\n", r.Title, r.Name, catalog.CiteBrief(r.Source), command)
	md.WriteString("| claim | source | rule | expected | measured | verdict |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, row := range rep.Rows {
		fmt.Fprintf(&md, "| %s | %s | %s | %s | %s | %s |\n", mdCell(row.Claim), mdCell(catalog.CiteBrief(row.Source)), mdCell(row.Rule),
			mdCell(row.Expected), mdCell(row.Measured), row.Verdict)
	}
	for k, fig := range rep.Figures {
		base := r.Name
		if k > 0 {
			base = fmt.Sprintf("%s-%d", r.Name, k+1)
		}
		bounds := fig.Bounds
		if bounds == "" {
			bounds = plot.BoundsAll
		}
		p := plot.Spec{Title: fig.Title, Measure: fig.Measure, YLabel: fig.YLabel, Curves: fig.Curves, Rows: fig.Rows, Bounds: bounds, Colors: fig.Colors,
			Width: reproduceWidth, Height: reproduceHeight}
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(dir, base+ext)
			if err := plot.Save(p, path); err != nil {
				return nil, outputError(fmt.Errorf("reproduce %s: %w", r.Name, err))
			}
			files = append(files, path)
		}
		fmt.Fprintf(&md, "\n![%s](%s.svg)\n", fig.Title, base)
	}
	if len(rep.Files) > 0 {
		md.WriteString("\nWritten beside this table (traces open with `elect view FILE`):")
		for _, f := range rep.Files {
			fmt.Fprintf(&md, " [%s](%s)", f.Name, f.Name)
		}
		md.WriteString(".\n")
	}
	for _, f := range rep.Files {
		path := filepath.Join(dir, f.Name)
		if err := atomicfile.WriteFile(path, f.Data, 0o666); err != nil {
			return nil, outputError(err)
		}
		files = append(files, path)
	}
	path := filepath.Join(dir, r.Name+".md")
	if err := atomicfile.WriteFile(path, []byte(md.String()), 0o666); err != nil {
		return nil, outputError(err)
	}
	return append([]string{path}, files...), nil
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
