package view_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/view"
)

// serve starts the viewer's own server (view.Listen, view.ServeHandler:
// what 'elect view' runs) on addr for a trace.
func serve(t *testing.T, addr string, data []byte) *view.Listener {
	t.Helper()
	ln, err := view.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	h, err := view.Handler(data)
	if err != nil {
		t.Fatal(err)
	}
	go view.ServeHandler(ln, h)
	t.Cleanup(func() { ln.Close() })
	return ln
}

// request sends one request to the listener's address with the given
// method, Host and Origin, and returns the status and the body.
func request(t *testing.T, ln *view.Listener, method, host, origin string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+ln.Addr().String()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// TestServerAnswersOnlyItsOwnNames: on loopback the server prints
// http://127.0.0.1:PORT/ and http://localhost:PORT/ and answers GET and
// HEAD for those Host names only; a foreign Host (a DNS rebinding page),
// a foreign Origin, and POST are refused.
func TestServerAnswersOnlyItsOwnNames(t *testing.T) {
	ln := serve(t, "127.0.0.1:0", lcrTrace(t, 3))
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if want := []string{"http://127.0.0.1:" + port + "/", "http://localhost:" + port + "/"}; strings.Join(ln.URLs, " ") != strings.Join(want, " ") || !ln.Loopback {
		t.Fatalf("URLs %q (loopback %v), want %q", ln.URLs, ln.Loopback, want)
	}
	for _, c := range []struct {
		method, host, origin string
		code                 int
	}{
		{"GET", "", "", 200},
		{"HEAD", "", "", 200},
		{"GET", "localhost:" + port, "", 200},
		{"GET", "LOCALHOST:" + port, "http://localhost:" + port, 200},
		{"GET", "evil.example:" + port, "", 403},
		{"GET", "evil.example", "", 403},
		{"GET", "127.0.0.1:1", "", 403},
		{"GET", "", "http://evil.example:" + port, 403},
		{"POST", "", "", 405},
		{"PUT", "", "", 405},
	} {
		code, body := request(t, ln, c.method, c.host, c.origin)
		if code != c.code {
			t.Errorf("%s Host %q Origin %q: %d, want %d", c.method, c.host, c.origin, code, c.code)
		}
		if code == 200 && c.method == "GET" && !strings.Contains(body, `"algorithm":"lcr"`) {
			t.Errorf("%s Host %q: the page has no trace", c.method, c.host)
		}
		if code != 200 && strings.Contains(body, `"algorithm"`) {
			t.Errorf("%s Host %q: refused, but the body holds the trace", c.method, c.host)
		}
	}
}

// TestServerOnAllInterfacesPrintsAUsableURL: with --addr 0.0.0.0:0 the
// first URL is http://127.0.0.1:PORT/ (not http://[::]:PORT/, which no
// browser opens), and it answers.
func TestServerOnAllInterfacesPrintsAUsableURL(t *testing.T) {
	ln := serve(t, "0.0.0.0:0", lcrTrace(t, 3))
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if ln.URLs[0] != "http://127.0.0.1:"+port+"/" || ln.Loopback {
		t.Fatalf("URLs %q, loopback %v", ln.URLs, ln.Loopback)
	}
	for _, u := range ln.URLs {
		if strings.Contains(u, "[::]") || strings.Contains(u, "0.0.0.0") {
			t.Errorf("unusable URL %s", u)
		}
	}
	if code, _ := request(t, ln, "GET", "127.0.0.1:"+port, ""); code != 200 {
		t.Errorf("GET %s: %d", ln.URLs[0], code)
	}
	if code, _ := request(t, ln, "GET", "evil.example:"+port, ""); code != 403 {
		t.Errorf("foreign Host: %d, want 403", code)
	}
}

// TestBrowserRefusedUnderAForeignName: the browser resolves rebind.test to
// 127.0.0.1 (--host-resolver-rules, as a rebinding attacker's DNS would);
// the page it gets under that name is the refusal, with no trace and no
// viewer, while the printed URL shows the viewer.
func TestBrowserRefusedUnderAForeignName(t *testing.T) {
	ln := serve(t, "127.0.0.1:0", lcrTrace(t, 3))
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ctx, _ := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://rebind.test:"+port+"/")); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	hasViewer, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.elect !== "undefined"`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "answers only requests to the addresses it printed") || hasViewer || strings.Contains(body, "lcr") {
		t.Errorf("under rebind.test the browser got %q (viewer %v)", body, hasViewer)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ln.URLs[1]), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatalf("%s: %v", ln.URLs[1], err)
	}
}

// TestServerClosesHalfOpenConnections: 300 connections to the viewer's
// own server (view.ServeHandler on a loopback listener) that send half a
// request header and then nothing are all closed by the server once its
// header timeout (10 s; 300 ms here) has passed, where they stayed open
// as long as their clients liked; a whole request is still answered.
func TestServerClosesHalfOpenConnections(t *testing.T) {
	if d := view.SetHeaderTimeout(300 * time.Millisecond); d != 10*time.Second {
		t.Errorf("the header timeout is %v, want 10 s", d)
	}
	t.Cleanup(func() { view.SetHeaderTimeout(10 * time.Second) })
	ln := serve(t, "127.0.0.1:0", lcrTrace(t, 3))
	conns := make([]net.Conn, 300)
	for i := range conns {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: " + ln.Addr().String() + "\r\n")); err != nil {
			t.Fatal(err)
		}
		conns[i] = c
	}
	// Each connection is read to its end; a read that reaches the guard
	// (30 s, a hundred times the timeout) finds it still open.
	guard := time.Now().Add(30 * time.Second)
	open := 0
	for _, c := range conns {
		c.SetReadDeadline(guard)
		_, err := io.Copy(io.Discard, c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			open++
		}
	}
	if open > 0 {
		t.Errorf("%d of 300 half-open connections were still open after 30 s", open)
	}
	if code, _ := request(t, ln, "GET", "", ""); code != http.StatusOK {
		t.Errorf("a whole request afterwards: status %d", code)
	}
}
