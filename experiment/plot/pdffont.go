package plot

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
)

// The PDF embeds the figures' font, Liberation Sans, as a TrueType subset
// (ISO 32000-1, 9.9 and 9.6.4): a font file with the outlines of the
// glyphs the figure uses and no others. The glyphs keep their indices
// (every other glyph is left empty: its loca entry has no length), so
// that the PDF's character codes are the glyph indices themselves (a
// Type0 font, Identity-H encoding, CIDToGIDMap /Identity) and the file
// needs no cmap. What is kept: the outlines (glyf, loca), the metrics
// (head, hhea, hmtx, maxp) and the hinting programs (cvt, fpgm, prep),
// the tables a PDF's embedded TrueType font is required to have, and the
// character map (cmap) and the PostScript table (post, version 3: without
// glyph names), which font tools (golang.org/x/image's sfnt among them)
// need to read the file.

// subsetTables are the tables the subset keeps, in tag order.
var subsetTables = []string{"cmap", "cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "post", "prep"}

// ttTable is a table of a TrueType file.
type ttTable struct {
	tag  string
	data []byte
}

// readTables reads a TrueType file's table directory.
func readTables(ttf []byte) (map[string][]byte, error) {
	if len(ttf) < 12 {
		return nil, fmt.Errorf("plot: the font file is %d bytes long", len(ttf))
	}
	n := int(binary.BigEndian.Uint16(ttf[4:]))
	if len(ttf) < 12+16*n {
		return nil, fmt.Errorf("plot: the font's table directory is cut short")
	}
	tables := map[string][]byte{}
	for i := range n {
		rec := ttf[12+16*i:]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(ttf)) {
			return nil, fmt.Errorf("plot: the font's table %q lies outside the file", rec[:4])
		}
		tables[string(rec[:4])] = ttf[off : off+length]
	}
	for _, t := range []string{"head", "loca", "glyf", "maxp", "hhea", "hmtx"} {
		if tables[t] == nil {
			return nil, fmt.Errorf("plot: the font has no %q table", t)
		}
	}
	return tables, nil
}

// glyphData returns the outline bytes of each glyph of a font, by the
// loca table in the format head gives.
func glyphData(tables map[string][]byte) ([][]byte, error) {
	head, loca, glyf := tables["head"], tables["loca"], tables["glyf"]
	if len(head) < 54 || len(tables["maxp"]) < 6 {
		return nil, fmt.Errorf("plot: the font's head or maxp table is cut short")
	}
	long := binary.BigEndian.Uint16(head[50:]) == 1
	n := int(binary.BigEndian.Uint16(tables["maxp"][4:]))
	offset := func(i int) (int, bool) {
		if long {
			if 4*i+4 > len(loca) {
				return 0, false
			}
			return int(binary.BigEndian.Uint32(loca[4*i:])), true
		}
		if 2*i+2 > len(loca) {
			return 0, false
		}
		return 2 * int(binary.BigEndian.Uint16(loca[2*i:])), true
	}
	out := make([][]byte, n)
	for i := range n {
		a, ok1 := offset(i)
		b, ok2 := offset(i + 1)
		if !ok1 || !ok2 || a > b || b > len(glyf) {
			return nil, fmt.Errorf("plot: the font's glyph %d lies outside its glyf table", i)
		}
		out[i] = glyf[a:b]
	}
	return out, nil
}

// components lists the glyphs a composite glyph is made of (none for a
// simple glyph).
func components(g []byte) []uint16 {
	if len(g) < 10 || int16(binary.BigEndian.Uint16(g)) >= 0 {
		return nil
	}
	const (
		argsAreWords = 0x0001
		haveScale    = 0x0008
		moreComps    = 0x0020
		haveXYScale  = 0x0040
		haveTwoByTwo = 0x0080
	)
	var out []uint16
	for p := 10; p+4 <= len(g); {
		flags := binary.BigEndian.Uint16(g[p:])
		out = append(out, binary.BigEndian.Uint16(g[p+2:]))
		p += 4
		if flags&argsAreWords != 0 {
			p += 4
		} else {
			p += 2
		}
		switch {
		case flags&haveScale != 0:
			p += 2
		case flags&haveXYScale != 0:
			p += 4
		case flags&haveTwoByTwo != 0:
			p += 8
		}
		if flags&moreComps == 0 {
			break
		}
	}
	return out
}

// subsetTrueType returns a TrueType file holding the glyphs used, glyph
// 0 (the missing glyph) and the components of composite glyphs among
// them, every other glyph left empty; the glyphs keep their indices.
func subsetTrueType(ttf []byte, used []uint16) ([]byte, error) {
	tables, err := readTables(ttf)
	if err != nil {
		return nil, err
	}
	glyphs, err := glyphData(tables)
	if err != nil {
		return nil, err
	}
	keep := map[uint16]bool{0: true}
	todo := slices.Clone(used)
	for len(todo) > 0 {
		g := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if int(g) >= len(glyphs) || keep[g] && g != 0 {
			continue
		}
		keep[g] = true
		for _, c := range components(glyphs[g]) {
			if !keep[c] {
				todo = append(todo, c)
			}
		}
	}
	var glyf []byte
	loca := make([]byte, 4*(len(glyphs)+1))
	for i, g := range glyphs {
		binary.BigEndian.PutUint32(loca[4*i:], uint32(len(glyf)))
		if keep[uint16(i)] {
			glyf = append(glyf, g...)
			for len(glyf)%4 != 0 {
				glyf = append(glyf, 0)
			}
		}
	}
	binary.BigEndian.PutUint32(loca[4*len(glyphs):], uint32(len(glyf)))
	head := slices.Clone(tables["head"])
	binary.BigEndian.PutUint16(head[50:], 1) // long loca offsets
	binary.BigEndian.PutUint32(head[8:], 0)  // checkSumAdjustment, set below
	var out []ttTable
	for _, tag := range subsetTables {
		var data []byte
		switch tag {
		case "glyf":
			data = glyf
		case "loca":
			data = loca
		case "head":
			data = head
		case "post":
			// version 3: the metrics without the glyphs' names
			if len(tables["post"]) >= 32 {
				data = slices.Clone(tables["post"][:32])
				binary.BigEndian.PutUint32(data, 0x00030000)
			}
		default:
			data = tables[tag]
		}
		if data != nil {
			out = append(out, ttTable{tag, data})
		}
	}
	file := writeTrueType(out)
	// The whole file's checksum is 0xB1B0AFBA once head's adjustment is
	// set (head's own checksum is taken with it 0).
	adj := 0xB1B0AFBA - checksum(file)
	for i := range out {
		if out[i].tag == "head" {
			off := int(binary.BigEndian.Uint32(file[12+16*i+8:]))
			binary.BigEndian.PutUint32(file[off+8:], adj)
		}
	}
	return file, nil
}

// checksum is the TrueType checksum: the sum of the data's big-endian
// 32-bit words, the last padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}

// writeTrueType writes a TrueType file of tables sorted by tag, each
// starting on a 4-byte boundary.
func writeTrueType(tables []ttTable) []byte {
	sort.Slice(tables, func(i, j int) bool { return tables[i].tag < tables[j].tag })
	n := len(tables)
	entry := 0
	for 1<<(entry+1) <= n {
		entry++
	}
	search := 16 << entry
	out := make([]byte, 12+16*n)
	binary.BigEndian.PutUint32(out, 0x00010000)
	binary.BigEndian.PutUint16(out[4:], uint16(n))
	binary.BigEndian.PutUint16(out[6:], uint16(search))
	binary.BigEndian.PutUint16(out[8:], uint16(entry))
	binary.BigEndian.PutUint16(out[10:], uint16(16*n-search))
	for i, t := range tables {
		rec := out[12+16*i:]
		copy(rec, t.tag)
		binary.BigEndian.PutUint32(rec[4:], checksum(t.data))
		binary.BigEndian.PutUint32(rec[8:], uint32(len(out)))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(t.data)))
		out = append(out, t.data...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	return out
}
