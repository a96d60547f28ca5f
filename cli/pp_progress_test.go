//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (Linux: /dev/ptmx) whose terminal
// side reports 120 columns and 40 rows, as a terminal window does (with 0
// columns the bars draw nothing); it skips the test where there is none.
func openPTY(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	var unlock int32
	var num uint32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: unlock: %v", err)
	}
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&num)); err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", num), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	size := struct{ rows, cols, x, y uint16 }{40, 120, 0, 0}
	if err := ioctl(s, syscall.TIOCSWINSZ, unsafe.Pointer(&size)); err != nil {
		t.Fatalf("window size: %v", err)
	}
	return m, s
}

// TestPPTrialsProgressOnTerminal: 'elect pp' with several trials draws one
// bar on a terminal (standard error a pseudo-terminal here): the trials
// done and the time left, each trial's end shown as "k of 3 trials done";
// standard output is the same as without a terminal, and without one
// nothing at all goes to standard error. The bar is drawn at every update
// (progressRefresh) so that the test does not depend on the machine's
// speed.
func TestPPTrialsProgressOnTerminal(t *testing.T) {
	args := []string{"pp", "angluin", "--n", "300", "--trials", "3", "--seed", "5", "--engine", "agent-array"}
	var plainOut, plainErr bytes.Buffer
	if code := Main(args, &plainOut, &plainErr); code != 0 {
		t.Fatalf("exit %d: %s", code, plainErr.String())
	}
	if plainErr.Len() != 0 {
		t.Errorf("stderr not a terminal: want nothing on it, got %q", plainErr.String())
	}

	master, term := openPTY(t)
	defer master.Close()
	drawn := make(chan string)
	go func() {
		b, _ := io.ReadAll(master) // ends with EIO once the terminal side is closed
		drawn <- string(b)
	}()
	progressRefresh = make(chan any)
	defer func() { progressRefresh = nil }()
	var out bytes.Buffer
	code := Main(args, &out, term)
	term.Close()
	screen := <-drawn
	if code != 0 {
		t.Fatalf("exit %d on a terminal: %q", code, screen)
	}
	for _, want := range []string{"angluin", "1 of 3 trials done", "2 of 3 trials done", "3 of 3 trials done", "%", " left"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal shows no %q:\n%q", want, screen)
		}
	}
	if out.String() != plainOut.String() {
		t.Errorf("stdout on a terminal differs:\n%s\nwithout one:\n%s", out.String(), plainOut.String())
	}
}
