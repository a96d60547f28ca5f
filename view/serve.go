package view

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The server shows the whole trace to whoever reaches it, so it answers
// only what a browser pointed at one of the URLs it printed asks:
//
//   - a request whose Host header is not one of those URLs' host:port is
//     refused (403). A page of another site can make a browser resolve its
//     own name to 127.0.0.1 (DNS rebinding) and then read the answers as
//     same-origin; its requests still carry its own name in Host.
//   - a request with an Origin header naming another origin is refused.
//   - only GET and HEAD are served (405 with Allow otherwise).

// Listener is where the viewer listens, with the URLs to print.
type Listener struct {
	net.Listener
	// URLs are the addresses a browser can use, the first the one to
	// open: for a loopback address http://127.0.0.1:PORT/ (or [::1]) and
	// http://localhost:PORT/; for an unspecified one (0.0.0.0, ::) the
	// loopback ones, then the machine's name and each address of its
	// interfaces; for any other, the address (and the name as given).
	URLs []string
	// Loopback reports whether only this machine can reach it.
	Loopback bool
	// Command names the command serving, in the guard's refusals
	// ("elect view" when empty; "elect explore" for the explorer).
	Command string
}

// Listen opens addr ("" means 127.0.0.1 on a free port).
func Listen(addr string) (*Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	l := &Listener{Listener: ln}
	a, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		l.URLs = []string{"http://" + ln.Addr().String() + "/"}
		return l, nil
	}
	port := strconv.Itoa(a.Port)
	var hosts []string
	switch {
	case a.IP.IsLoopback():
		l.Loopback = true
		hosts = append(hosts, a.IP.String(), "localhost")
	case a.IP.IsUnspecified():
		hosts = append(hosts, "127.0.0.1", "localhost", "::1")
		if name, err := os.Hostname(); err == nil && name != "" {
			hosts = append(hosts, name)
		}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, ia := range addrs {
				if n, ok := ia.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
					hosts = append(hosts, n.IP.String())
				}
			}
		}
	default:
		hosts = append(hosts, a.IP.String())
		if net.ParseIP(host) == nil && host != "" {
			hosts = append(hosts, host)
		}
	}
	for _, h := range hosts {
		if u := "http://" + net.JoinHostPort(h, port) + "/"; !slices.Contains(l.URLs, u) {
			l.URLs = append(l.URLs, u)
		}
	}
	return l, nil
}

// Guard wraps h so that it answers only GET and HEAD requests whose Host
// is the host:port of one of urls, and whose Origin, if any, is one of
// urls: the defence against DNS rebinding and cross-site requests.
// Its refusals name command ("elect view", say).
func Guard(h http.Handler, urls []string, command string) http.Handler {
	allowed := map[string]bool{}
	for _, u := range urls {
		allowed[strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/"))] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if _, _, err := net.SplitHostPort(host); err != nil {
			host = net.JoinHostPort(strings.Trim(host, "[]"), "80")
		}
		if !allowed[host] {
			http.Error(w, command+": this server answers only requests to the addresses it printed ("+strings.Join(urls, ", ")+"), not to "+r.Host, http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !allowed[strings.ToLower(strings.TrimPrefix(o, "http://"))] {
			http.Error(w, command+": requests from another origin are refused", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, command+": only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Serve serves the page on ln until ln is closed.
func Serve(ln *Listener, data []byte) error {
	return ServeWith(ln, data, Options{})
}

// ServeWith is Serve with the options of opt.
func ServeWith(ln *Listener, data []byte, opt Options) error {
	h, err := NewHandler(data, opt)
	if err != nil {
		return err
	}
	return ServeHandler(ln, h)
}

// The server's limits on what a client may hold: a connection that has
// not sent a whole request header HeaderTimeout after it opened (or after
// its previous request) is closed, and so is a keep-alive connection idle
// for idleTimeout; a header may take at most maxHeaderBytes. Without them
// 300 connections that sent half a header stayed open (with a goroutine
// each) for as long as their clients liked. There is no write or whole
// request timeout: a window's answer waits for the background check to
// pass its end, tens of seconds into a trace of 10^7 events, and a GET
// has no body to wait for.
var headerTimeout = 10 * time.Second

const (
	idleTimeout    = 60 * time.Second
	maxHeaderBytes = 64 << 10
)

// ServeHandler serves h (from NewHandler) on ln until ln is closed,
// behind Guard with ln's URLs.
func ServeHandler(ln *Listener, h http.Handler) error {
	command := ln.Command
	if command == "" {
		command = "elect view"
	}
	srv := &http.Server{Handler: Guard(h, ln.URLs, command), ReadHeaderTimeout: headerTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
	err := srv.Serve(ln)
	if errors.Is(err, net.ErrClosed) || errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
