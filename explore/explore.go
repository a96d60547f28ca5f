// Package explore is 'elect explore', "be the scheduler": a page on which
// the user takes the scheduler's part in a small asynchronous run, picking
// which message in flight is delivered next (or, first, the ID
// assignment), with undo, the counts against the algorithm's bounds, and,
// from the exhaustive checker's per-state extremes (check.Session), the
// most and fewest messages any continuation can still cause, with buttons
// that take a step towards the worst or the best case.
//
// The page is embedded (explore.html), plain JavaScript, and talks to the
// server on its own origin: GET /state, /step?j=J, /undo. The state-changing
// requests must carry the header X-Elect-Explore, which a page of another
// site cannot set without a preflight the server refuses (it answers GET
// and HEAD only, behind view.Guard).
package explore

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/electkit/elect"
	"github.com/electkit/elect/check"
)

//go:embed explore.html
var pageHTML []byte

// state is what the page gets after every request.
type state struct {
	Algorithm string         `json:"algorithm"`
	Title     string         `json:"title"`
	N         int            `json:"n"`
	Topology  string         `json:"topology"`
	Delivery  string         `json:"delivery"`
	IDs       []elect.ID     `json:"ids"`
	Names     []string       `json:"names"`
	Counts    []int64        `json:"counts"`
	Max       []int64        `json:"max"`
	Min       []int64        `json:"min"`
	Choices   []check.Choice `json:"choices"`
	Decisions []string       `json:"decisions"`
	Taken     int            `json:"taken"`
	CanUndo   bool           `json:"can_undo"`
	Bounds    []bound        `json:"bounds"`
	// Search is how far the search of every ID assignment's extremes has
	// gone (it runs while the page is served).
	Search check.SearchProgress `json:"search"`
	Error  string               `json:"error,omitempty"`
}

type bound struct {
	Name     string   `json:"name"`
	Relation string   `json:"relation"`
	Formula  string   `json:"formula"`
	Quantity string   `json:"quantity"`
	Types    []string `json:"types"`
	Value    float64  `json:"value"`
}

// Handler serves the explore page for a session.
func Handler(ss *check.Session) http.Handler {
	var mu sync.Mutex
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, err error) {
		st := snapshot(ss)
		if err != nil {
			st.Error = err.Error()
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(st)
	}
	changes := func(f func(r *http.Request) error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Elect-Explore") == "" {
				http.Error(w, "explore: a step needs the page's X-Elect-Explore header", http.StatusForbidden)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			reply(w, f(r))
		}
	}
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		reply(w, nil)
	})
	mux.HandleFunc("GET /step", changes(func(r *http.Request) error {
		q := r.URL.Query().Get("j")
		j, err := strconv.Atoi(q)
		if err != nil {
			return fmt.Errorf("explore: step j=%.40q is not a choice's number (0, 1, ...)", q)
		}
		return ss.Step(j)
	}))
	mux.HandleFunc("GET /undo", changes(func(r *http.Request) error { ss.Undo(); return nil }))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
		h.Set("Cache-Control", "no-store")
		w.Write(pageHTML)
	})
	return mux
}

func snapshot(ss *check.Session) state {
	hi, lo, reachErr := ss.Reach() // first: with fixed IDs it chooses them
	h := ss.Header()
	st := state{Algorithm: h.Algorithm, Title: h.Title, N: h.N, Topology: h.Topology.Name, Delivery: h.Delivery,
		IDs: ss.IDs(), Names: ss.Names, Counts: ss.Counts(), Taken: ss.Taken(), CanUndo: ss.CanUndo(),
		Max: hi, Min: lo, Search: ss.Progress()}
	var err error
	if reachErr != nil {
		st.Error = reachErr.Error()
	}
	if st.Choices, err = ss.Choices(); err != nil {
		st.Error = err.Error()
	}
	if st.Choices == nil {
		st.Choices = []check.Choice{}
	}
	for _, d := range ss.Decisions() {
		st.Decisions = append(st.Decisions, d.String())
	}
	for _, b := range h.Bounds {
		st.Bounds = append(st.Bounds, bound{Name: b.Name, Relation: b.Relation, Formula: b.Formula, Quantity: b.Quantity, Types: b.Types, Value: b.Value})
	}
	return st
}
