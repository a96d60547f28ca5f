package protocols

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/trace"
)

// PLL is P_LL of Sudo, Ooshita, Izumi, Kakugawa and Masuzawa, "Time-Optimal
// Leader Election in Population Protocols" (seed 004): Algorithm 1 (main:
// status assignment, epochs), Algorithm 2 (CountUp), Algorithm 3
// (QuickElimination), Algorithm 4 (Tournament) and Algorithm 5 (BackUp),
// with c_max = 41m and m >= lg n. With Symmetric set it is the symmetric
// variant of Section 4: statuses X and Y (X,X -> Y,Y; Y,Y -> X,X;
// X,Y -> A,B), follower coin statuses J, K, F0, F1 (J,J -> K,K; K,K -> J,J;
// J,K -> F0,F1), coin flips read from F0/F1 followers, and Algorithm 6 for
// BackUp.
//
// Rules in brief (line numbers are the paper's):
//
//   - 1-6: two X agents meet: the initiator becomes A (leader, level_Q = 0,
//     done = false), the responder B (follower, count = 0); an X agent meeting
//     an A or B agent becomes an A follower with done = true.
//   - 23-34 CountUp: a B agent counts its interactions modulo c_max and gets
//     a new color (mod 3) when the count wraps; a new color spreads by
//     epidemic (and resets the count of B agents); getting a new color raises
//     tick.
//   - 9-15: a tick raises the epoch (1, 2, 3); the larger epoch spreads; an
//     agent entering epoch 2 (resp. 3) initialises rand = 1 (resp.
//     level_B = 0).
//   - 35-42 QuickElimination (epoch 1): a leader that is not done flips a
//     coin at each meeting with a follower (initiator: head, level_Q + 1;
//     responder: tail, done); done agents spread the maximum level_Q, and a
//     leader seeing a larger one becomes a follower.
//   - 43-49 Tournament (epoch 2): a leader builds rand from ceil(lg m) coin
//     flips at meetings with followers (rand = 2 rand + i, i = 1 for the
//     responder); finished values spread by epidemic, eliminating smaller.
//   - 50-57 BackUp (epoch 3): at a tick, a leader that is the initiator
//     increments level_B (up to c_max); the maximum level_B spreads and
//     eliminates smaller leaders; when two leaders meet, the responder becomes
//     a follower.
//
// Transcription errors and how they are handled (each is marked at its line):
//
//   - Line 9 reads "epoch <- max(epoch + 1, 3)", which gives 3 from epochs
//     1 and 2, skipping Tournament (and 4 from epoch 3, outside epoch's
//     range); the prose ("increases by one unless it has already reached
//     3") and epoch's range {1, 2, 3} require min. Default: min; variant
//     "literal-epoch": max, kept within {1, 2, 3}.
//   - Line 43 reads "if i in {0, 1}", meaning "if there exists i in {0, 1}".
//   - Line 46 requires rand >= 2^ceil(lg m) of both agents, but followers
//     start epoch 2 with rand = 1 (Line 12) and never build a nonce, so they
//     could never relay the maximum nonce, while the prose and the proof of
//     Lemma 10 need the maximum "propagated to the whole sub-population V_A"
//     by one-way epidemic (Lemma 1 applied to V_A). Default: the comparison
//     excludes only leaders still building their nonce (leader with
//     rand < 2^ceil(lg m)), so followers relay; variant "literal-relay": the
//     line as printed. Variant "literal" applies both literal readings.
//
// State encoding: the common variables and the one additional variable of the
// agent's group are packed in a uint32 (see pllAgent). tick is not stored: it
// is reset at Line 7 before it is ever read, so it only lives during one
// interaction. init is not stored either: after every interaction init =
// epoch (Lines 11-15), so "epoch > init" is "the epoch rose during this
// interaction".
type PLL struct {
	n, m      int
	cmax      uint16
	randLimit uint16 // 2^ceil(lg m)
	sym       bool
	litEpoch  bool
	litRelay  bool
	variant   string
}

// Status values of an agent (X and Y are unassigned; Y only in pll-sym).
const (
	statusX uint8 = 0
	statusA uint8 = 1
	statusB uint8 = 2
	statusY uint8 = 3
)

// Coin statuses of a follower in pll-sym.
const (
	coinJ  uint8 = 0
	coinK  uint8 = 1
	coinF0 uint8 = 2
	coinF1 uint8 = 3
)

// Event bits of PLL (see pp.Delta.Events).
const (
	eventEpoch2 uint8 = 1 << 0 // an agent entered epoch 2 (or beyond)
	eventEpoch3 uint8 = 1 << 1 // an agent entered epoch 3
)

// PLLVariants are the accepted variant names of pll and pll-sym.
var PLLVariants = []string{"prose", "literal-epoch", "literal-relay", "literal"}

// MinPLLM returns the smallest m allowed for n agents: ceil(lg n), so that
// m >= lg n.
func MinPLLM(n int) int { return bits.Len(uint(n - 1)) }

// MaxPLLM is the largest m the state encoding holds (c_max = 41m < 2^12).
const MaxPLLM = 99

// NewPLL returns P_LL (sym false) or its symmetric variant (sym true) for n
// agents with parameter m (0: ceil(lg n)).
func NewPLL(n, m int, sym bool, variant string) (*PLL, error) {
	if m == 0 {
		m = MinPLLM(n)
	}
	if m < MinPLLM(n) {
		return nil, fmt.Errorf("m must satisfy m >= lg n = %.2f, i.e. m >= %d for n = %d; got %d", math.Log2(float64(n)), MinPLLM(n), n, m)
	}
	if m > MaxPLLM {
		return nil, fmt.Errorf("m must be at most %d; got %d", MaxPLLM, m)
	}
	if m < 1 {
		m = 1
	}
	if variant == "" {
		variant = "prose"
	}
	p := &PLL{n: n, m: m, cmax: uint16(41 * m), sym: sym, variant: variant}
	switch variant {
	case "prose":
	case "literal-epoch":
		p.litEpoch = true
	case "literal-relay":
		p.litRelay = true
	case "literal":
		p.litEpoch, p.litRelay = true, true
	default:
		return nil, fmt.Errorf("unknown variant %q; variants: prose, literal-epoch, literal-relay, literal", variant)
	}
	p.randLimit = uint16(1) << bits.Len(uint(m-1)) // 2^ceil(lg m)
	return p, nil
}

// M returns the parameter m in use.
func (p *PLL) M() int { return p.m }

// Spec: the goal is one leader, and the number of leaders never increases and
// never reaches zero (Lemma 11).
func (p *PLL) Spec() pp.Spec {
	name := "pll"
	if p.sym {
		name = "pll-sym"
	}
	nn := int64(p.n)
	return pp.Spec{Name: name, Goal: pp.GoalOneLeader, Monotone: true, StateSpace: 1 << pllBits,
		DefaultMaxSteps: nn*int64(p.cmax)*200 + 100*nn*nn}
}

// pllAgent is the unpacked state of one agent.
type pllAgent struct {
	leader  bool
	status  uint8 // statusX, statusA, statusB, statusY
	epoch   uint8 // 1, 2, 3
	color   uint8 // 0, 1, 2
	flag    bool  // done (V_A and V_1) or ready (pll-sym, V_A and V_3 leaders)
	coin    uint8 // pll-sym followers: coinJ, coinK, coinF0, coinF1
	statusL uint8 // pll-sym: status_L in {0, 1}
	v       uint16
	// v is the group's additional variable: count (V_B), level_Q (V_A, V_1),
	// rand (V_A, V_2) or level_B (V_A, V_3); 0 for V_X.
}

// Packed layout: bit 0 leader, 1-2 status, 3-4 epoch, 5-6 color, 7 flag,
// 8-9 coin, 10 status_L, 11-22 v.
const pllBits = 23

// pllFields declares the packed layout for traces (the viewer names a
// state's fields with it); TestPLLFieldsMatchUnpack checks it against
// unpack.
var pllFields = []trace.StateField{
	{Name: "leader", Shift: 0, Bits: 1, Values: []string{"no", "yes"}},
	{Name: "status", Shift: 1, Bits: 2, Values: []string{"X", "A", "B", "Y"}},
	{Name: "epoch", Shift: 3, Bits: 2},
	{Name: "color", Shift: 5, Bits: 2},
	{Name: "flag", Shift: 7, Bits: 1},
	{Name: "coin", Shift: 8, Bits: 2, Values: []string{"J", "K", "F0", "F1"}},
	{Name: "statusL", Shift: 10, Bits: 1},
	{Name: "v", Shift: 11, Bits: pllBits - 11},
}

func pack(a pllAgent) uint32 {
	s := uint32(a.status)<<1 | uint32(a.epoch)<<3 | uint32(a.color)<<5 | uint32(a.coin)<<8 | uint32(a.statusL)<<10 | uint32(a.v)<<11
	if a.leader {
		s |= 1
	}
	if a.flag {
		s |= 1 << 7
	}
	return s
}

func unpack(s uint32) pllAgent {
	return pllAgent{
		leader:  s&1 != 0,
		status:  uint8(s>>1) & 3,
		epoch:   uint8(s>>3) & 3,
		color:   uint8(s>>5) & 3,
		flag:    s&(1<<7) != 0,
		coin:    uint8(s>>8) & 3,
		statusL: uint8(s>>10) & 1,
		v:       uint16(s >> 11),
	}
}

// Init: every agent is a leader with status X, epoch 1, color 0 (Table 3).
func (p *PLL) Init(int) uint32 { return pack(pllAgent{leader: true, status: statusX, epoch: 1}) }

// IsLeader is the output function pi_out.
func (p *PLL) IsLeader(s uint32) bool { return s&1 != 0 }

// Index is the packed state.
func (p *PLL) Index(s uint32) uint64 { return uint64(s) }

// Transition applies one interaction to packed states (initiator first) and
// returns the new packed states; it is the pure transition function T.
func (p *PLL) Transition(s0, s1 uint32) (uint32, uint32) {
	a := [2]pllAgent{unpack(s0), unpack(s1)}
	p.interact(&a)
	return pack(a[0]), pack(a[1])
}

// Interact applies the transition function and reports the leader change.
func (p *PLL) Interact(x, y *uint32) pp.Delta {
	if !p.sym {
		if t0, t1, ok := p.fastFollowers(*x, *y); ok {
			*x, *y = t0, t1
			return pp.Delta{}
		}
	}
	a := [2]pllAgent{unpack(*x), unpack(*y)}
	before := b2i(a[0].leader) + b2i(a[1].leader)
	e0, e1 := a[0].epoch, a[1].epoch
	p.interact(&a)
	*x, *y = pack(a[0]), pack(a[1])
	d := int32(b2i(a[0].leader) + b2i(a[1].leader) - before)
	return pp.Delta{Leaders: d, Events: epochEvents(e0, a[0].epoch) | epochEvents(e1, a[1].epoch)}
}

// PartnerClass (pp.PartnerClasser): an agent sees a counting agent (status
// B) only through its status, epoch, colour (and in pll-sym its coin and
// status_L), and through whether its count wraps in this interaction, which
// changes its colour and raises its tick (Lines 23-29); the count itself is
// read by nobody else. So a B agent's class is its state with the count
// replaced by that wrap bit, and every other state is a class of its own.
// This lets the count engines match P_LL's hundreds of clock states class by
// class; TestPLLPartnerClasses checks the promise.
func (p *PLL) PartnerClass(s uint32) uint64 {
	const vShift = 11
	if uint8(s>>1)&3 != statusB {
		return uint64(s)
	}
	var wrap uint32
	if s>>vShift+1 == uint32(p.cmax) {
		wrap = 1
	}
	return uint64(s&(1<<vShift-1) | wrap<<vShift)
}

// fastFollowers is the transition of P_LL, computed on packed states, for
// the most frequent kind of interaction once statuses are assigned: two
// followers with status A or B, in the same epoch and of the same color,
// where no B agent's count wraps. Then Lines 1-15 only increment the count
// of B agents, and the module only spreads the larger level_Q (both done),
// rand or level_B between two A agents (no leader is involved, so nobody is
// eliminated and no coin is flipped). ok is false for every other pair,
// which takes the general path; TestPLLFastPathMatchesTransition checks the
// two agree.
func (p *PLL) fastFollowers(s0, s1 uint32) (uint32, uint32, bool) {
	const (
		statusBits = 3 << 1
		commonBits = 0xF << 3 // epoch and color
		doneBit    = 1 << 7
		vShift     = 11
		one        = 1 << vShift
	)
	if (s0|s1)&1 != 0 || s0&statusBits == 0 || s1&statusBits == 0 || (s0^s1)&commonBits != 0 {
		return 0, 0, false
	}
	a0 := s0&statusBits == uint32(statusA)<<1
	a1 := s1&statusBits == uint32(statusA)<<1
	if !a0 {
		if s0>>vShift+1 == uint32(p.cmax) {
			return 0, 0, false
		}
		s0 += one
	}
	if !a1 {
		if s1>>vShift+1 == uint32(p.cmax) {
			return 0, 0, false
		}
		s1 += one
	}
	if !a0 || !a1 {
		return s0, s1, true
	}
	v0, v1 := s0>>vShift, s1>>vShift
	switch (s0 >> 3) & 3 { // epoch
	case 1:
		if s0&s1&doneBit == 0 {
			return 0, 0, false
		}
	case 2:
		if p.litRelay && (v0 < uint32(p.randLimit) || v1 < uint32(p.randLimit)) {
			return s0, s1, true
		}
	}
	if v0 < v1 {
		s0 = s0&(one-1) | v1<<vShift
	} else if v1 < v0 {
		s1 = s1&(one-1) | v0<<vShift
	}
	return s0, s1, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// becomeFollower sets leader to false; in pll-sym a new follower gets coin
// status J and its ready flag is cleared (Section 4: "Every time a leader v
// becomes a follower, initial status J is assigned to v").
func (p *PLL) becomeFollower(a *pllAgent) {
	if !a.leader {
		return
	}
	a.leader = false
	if p.sym {
		a.coin = coinJ
		if a.status == statusA && a.epoch == 3 {
			a.flag = false
		}
	}
}

func unassigned(a *pllAgent) bool { return a.status == statusX || a.status == statusY }

// interact is Algorithm 1 (and the Section 4 changes when p.sym).
func (p *PLL) interact(a *[2]pllAgent) {
	startEpoch := [2]uint8{a[0].epoch, a[1].epoch}

	// Lines 1-6: assignment of status.
	if p.sym {
		p.assignStatusSym(a)
	} else {
		switch {
		case a[0].status == statusX && a[1].status == statusX: // Lines 1-3
			a[0].status, a[0].v, a[0].flag, a[0].leader = statusA, 0, false, true
			a[1].status, a[1].v = statusB, 0
			p.becomeFollower(&a[1])
		default: // Lines 4-5: "exists i" with a_i in V_X and a_{1-i} not in V_X
			for i := range 2 {
				if a[i].status == statusX && a[1-i].status != statusX {
					a[i].status, a[i].v, a[i].flag = statusA, 0, true
					p.becomeFollower(&a[i])
				}
			}
		}
	}
	if p.sym { // Section 4: coin statuses of followers
		p.flipCoins(a)
	}

	// Line 7: tick is reset; it only lives during this interaction.
	var tick [2]bool

	// Line 8: CountUp (Algorithm 2, Lines 23-34).
	for i := range 2 { // Lines 23-29
		if a[i].status == statusB {
			a[i].v++
			if a[i].v == p.cmax {
				a[i].v = 0
			}
			if a[i].v == 0 {
				a[i].color = (a[i].color + 1) % 3
				tick[i] = true
			}
		}
	}
	for i := range 2 { // Lines 30-34 (at most one i can satisfy the test)
		if a[1-i].color == (a[i].color+1)%3 {
			a[i].color = a[1-i].color
			tick[i] = true
			if a[i].status == statusB {
				a[i].v = 0
			}
			break
		}
	}

	// Line 9: for every agent with tick, raise its epoch.
	for i := range 2 {
		if tick[i] {
			if p.litEpoch {
				// Literal transcription: max(epoch + 1, 3). From epochs 1
				// and 2 that is 3; from epoch 3 it is 4, outside the range
				// {1, 2, 3} the paper gives epoch (and beyond the two bits
				// the packed state holds), so the epoch stays 3.
				a[i].epoch = min(max(a[i].epoch+1, 3), 3)
			} else {
				// Transcription error: printed as max(epoch + 1, 3); the prose
				// ("increases by one unless it has already reached 3") needs min.
				a[i].epoch = min(a[i].epoch+1, 3)
			}
		}
	}
	// Line 10: both take the larger epoch.
	e := max(a[0].epoch, a[1].epoch)
	a[0].epoch, a[1].epoch = e, e

	// Lines 11-15: initialise the new group's additional variable when the
	// epoch rose (epoch > init, where init was the epoch before this
	// interaction). The previous group's variables are dropped.
	for i := range 2 {
		if a[i].epoch > startEpoch[i] && a[i].status == statusA {
			switch a[i].epoch {
			case 2: // Line 12
				a[i].v, a[i].flag = 1, false
			case 3: // Line 13 (pll-sym: ready starts false)
				a[i].v, a[i].flag = 0, false
			}
		}
	}

	// Lines 16-22: the module of the common epoch.
	switch {
	case a[0].epoch == 1 && a[1].epoch == 1:
		p.quickElimination(a)
	case a[0].epoch == 2 && a[1].epoch == 2:
		p.tournament(a)
	case a[0].epoch == 3 && a[1].epoch == 3:
		if p.sym {
			p.backUpSym(a, tick)
		} else {
			p.backUp(a, tick)
		}
	}
}

// assignStatusSym is Section 4's symmetric status assignment:
// X,X -> Y,Y; Y,Y -> X,X; X,Y -> A,B; an X or Y agent meeting an A or B agent
// becomes an A follower with done = true.
func (p *PLL) assignStatusSym(a *[2]pllAgent) {
	s0, s1 := a[0].status, a[1].status
	switch {
	case s0 == statusX && s1 == statusX:
		a[0].status, a[1].status = statusY, statusY
	case s0 == statusY && s1 == statusY:
		a[0].status, a[1].status = statusX, statusX
	case s0 == statusX && s1 == statusY, s0 == statusY && s1 == statusX:
		x, y := 0, 1
		if s0 == statusY {
			x, y = 1, 0
		}
		a[x].status, a[x].v, a[x].flag, a[x].leader = statusA, 0, false, true
		a[y].status, a[y].v = statusB, 0
		p.becomeFollower(&a[y])
	default:
		for i := range 2 {
			if unassigned(&a[i]) && !unassigned(&a[1-i]) {
				a[i].status, a[i].v, a[i].flag = statusA, 0, true
				p.becomeFollower(&a[i])
			}
		}
	}
}

// flipCoins is Section 4's coin rule between two followers:
// J,J -> K,K; K,K -> J,J; J,K -> F0,F1 (F0 and F1 never change).
func (p *PLL) flipCoins(a *[2]pllAgent) {
	if a[0].leader || a[1].leader {
		return
	}
	c0, c1 := a[0].coin, a[1].coin
	switch {
	case c0 == coinJ && c1 == coinJ:
		a[0].coin, a[1].coin = coinK, coinK
	case c0 == coinK && c1 == coinK:
		a[0].coin, a[1].coin = coinJ, coinJ
	case c0 == coinJ && c1 == coinK:
		a[0].coin, a[1].coin = coinF0, coinF1
	case c0 == coinK && c1 == coinJ:
		a[0].coin, a[1].coin = coinF1, coinF0
	}
}

// coinFlip says whether leader a[i] flips a coin with its partner and its
// result. In pll the partner must be a follower and the result is "head"
// when the leader is the initiator (i = 0); in pll-sym the partner must be a
// follower with coin status F0 (head) or F1 (tail).
func (p *PLL) coinFlip(a *[2]pllAgent, i int) (flips, head bool) {
	o := &a[1-i]
	if o.leader {
		return false, false
	}
	if !p.sym {
		return true, i == 0
	}
	switch o.coin {
	case coinF0:
		return true, true
	case coinF1:
		return true, false
	}
	return false, false
}

// quickElimination is Algorithm 3 (Lines 35-42).
func (p *PLL) quickElimination(a *[2]pllAgent) {
	// Lines 35-38: a leader that is not done flips a coin with a follower.
	for i := range 2 {
		if a[i].leader && !a[i].flag {
			if flips, head := p.coinFlip(a, i); flips {
				if head { // Line 36
					a[i].v = min(a[i].v+1, p.cmax)
				} else { // Line 37
					a[i].flag = true
				}
				break
			}
		}
	}
	// Lines 39-42: done agents of V_A spread the maximum level_Q.
	if a[0].status == statusA && a[1].status == statusA && a[0].flag && a[1].flag {
		for i := range 2 {
			if a[i].v < a[1-i].v {
				p.becomeFollower(&a[i]) // Line 40
				a[i].v = a[1-i].v       // Line 41
				break
			}
		}
	}
}

// tournament is Algorithm 4 (Lines 43-49).
func (p *PLL) tournament(a *[2]pllAgent) {
	lim := p.randLimit
	// Lines 43-45. Transcription error: "if i in {0, 1}" means "if there
	// exists i in {0, 1}".
	for i := range 2 {
		if a[i].leader && a[i].v < lim {
			if flips, head := p.coinFlip(a, i); flips {
				bit := uint16(1) // pll: i = 1 for the responder (tail)
				if head {
					bit = 0
				}
				a[i].v = 2*a[i].v + bit // Line 44
				break
			}
		}
	}
	// Lines 46-49.
	if a[0].status != statusA || a[1].status != statusA {
		return
	}
	if p.litRelay {
		// Literal transcription: both rand >= 2^ceil(lg m); followers
		// (rand = 1) can then never relay the maximum nonce.
		if a[0].v < lim || a[1].v < lim {
			return
		}
	} else if (a[0].leader && a[0].v < lim) || (a[1].leader && a[1].v < lim) {
		// Transcription error: the line excludes every agent with
		// rand < 2^ceil(lg m), but the prose and Lemma 10 need the maximum
		// nonce spread through all of V_A; only leaders still building their
		// nonce are excluded, so followers relay it.
		return
	}
	for i := range 2 {
		if a[i].v < a[1-i].v {
			p.becomeFollower(&a[i]) // Line 47
			a[i].v = a[1-i].v       // Line 48
			break
		}
	}
}

// backUp is Algorithm 5 (Lines 50-57).
func (p *PLL) backUp(a *[2]pllAgent, tick [2]bool) {
	if tick[0] && a[0].leader { // Lines 50-52: head for the initiator
		a[0].v = min(a[0].v+1, p.cmax)
	}
	if a[0].status == statusA && a[1].status == statusA { // Lines 53-56
		for i := range 2 {
			if a[i].v < a[1-i].v {
				a[i].v = a[1-i].v
				p.becomeFollower(&a[i])
				break
			}
		}
	}
	if a[0].leader && a[1].leader { // Line 57
		p.becomeFollower(&a[1])
	}
}

// backUpSym is Algorithm 6 (symmetric BackUp, Lines 1-18 of Algorithm 6).
func (p *PLL) backUpSym(a *[2]pllAgent, tick [2]bool) {
	for i := range 2 { // Line 1
		a[i].statusL = 1 - a[i].statusL
	}
	for i := range 2 { // Lines 2-11 (flag is ready)
		if !a[i].leader {
			continue
		}
		o := &a[1-i]
		switch {
		case tick[i]: // Lines 3-4
			a[i].flag = true
		case a[i].flag && !o.leader && o.coin == coinF0: // Lines 5-7
			a[i].v = min(a[i].v+1, p.cmax)
			a[i].flag = false
		case a[i].flag && !o.leader && o.coin == coinF1: // Lines 8-9
			a[i].flag = false
		}
	}
	if a[0].status == statusA && a[1].status == statusA { // Lines 12-15
		for i := range 2 {
			if a[i].v < a[1-i].v {
				a[i].v = a[1-i].v
				p.becomeFollower(&a[i])
				break
			}
		}
	}
	for i := range 2 { // Lines 16-18
		if a[i].leader && a[1-i].leader && a[i].statusL == 0 && a[1-i].statusL == 1 {
			p.becomeFollower(&a[1-i])
			break
		}
	}
}

// epochEvents are the events of an agent that goes from epoch old to
// epoch now. Each agent enters each epoch once; the engine records the
// first step of each event and the leaders then (Result.EventSteps and
// EventLeaders), so no value here needs to know the population's largest
// epoch.
func epochEvents(old, now uint8) uint8 {
	var ev uint8
	if old < 2 && now >= 2 {
		ev |= eventEpoch2
	}
	if old < 3 && now == 3 {
		ev |= eventEpoch3
	}
	return ev
}

// Finish records the leaders when the population left epochs 1 and 2 and
// whether BackUp was needed.
func (p *PLL) Finish(states []uint32, r *pp.Result) {
	r.Add("m", p.m)
	r.Add("c_max", p.cmax)
	r.Add("variant", p.variant)
	r.Add("epoch2_step", r.EventSteps[0])
	r.Add("epoch3_step", r.EventSteps[1])
	// The number of leaders never increases and is at least one, so a run
	// that stopped with one leader before an epoch began would enter it with
	// exactly one leader.
	at := func(e int) int64 {
		if l := r.EventLeaders[e-2]; l >= 0 {
			return l
		}
		if r.Outcome == pp.Elected {
			return 1
		}
		return -1
	}
	r.Add("leaders_leaving_epoch1", at(2))
	r.Add("leaders_leaving_epoch2", at(3))
	r.Add("backup_needed", at(3) > 1)
	top := uint8(1) // epochs never decrease: the largest of the final configuration
	for _, s := range states {
		top = max(top, unpack(s).epoch)
	}
	r.Add("max_epoch", top)
}
