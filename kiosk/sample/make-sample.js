// Builds Lectern's bundled sample document (Sources/lectern/Resources/sample.pdf).
//
// Usage: mutool run kiosk/sample/make-sample.js OUTPUT.pdf [FONT_DIR]
// (kiosk/sample/make-sample is the wrapper that picks the paths.)
//
// The sample shows what Lectern can do: a title page with an image, text pages, a
// landscape page, a page stored portrait with /Rotate 90, internal (GoTo) and external
// (URI) links, a right-to-left Hebrew section and /PageLabels.
//
// MuPDF 1.21's `new Font(file)` cannot load a font file (Debian's build falls back to a
// built-in face without Hebrew), so this script reads DejaVu Sans itself, keeps only the
// glyphs the document uses (glyph ids unchanged, everything else emptied) and embeds it
// as a CIDFontType2 font with Identity-H encoding and a ToUnicode map, so the text stays
// searchable and selectable. MuJS is ES5: no let/const, no arrow functions, no for-of.

"use strict";

var OUTPUT = scriptArgs[0];
var FONT_DIR = scriptArgs[1] || "/usr/share/fonts/truetype/dejavu";
if (!OUTPUT) {
	print("usage: mutool run make-sample.js OUTPUT.pdf [FONT_DIR]");
	quit(2);
}

var doc = new PDFDocument();
function N(name) { return doc.newName(name); }
// MuPDF 1.21 turns plain JS strings into PDF names; PDF strings must be made explicitly.
function S(text) { return doc.newString(text); }

// ---------------------------------------------------------------- TrueType reading

/** Parses the tables of a TrueType file that layout and subsetting need. */
function TrueType(path) {
	var b = readFile(path);
	this.b = b;
	this.path = path;
	function u16(o) { return (b[o] << 8) | b[o + 1]; }
	function i16(o) { var v = u16(o); return v >= 0x8000 ? v - 0x10000 : v; }
	function u32(o) { return ((b[o] << 24) >>> 0) + (b[o + 1] << 16) + (b[o + 2] << 8) + b[o + 3]; }
	this.u16 = u16; this.i16 = i16; this.u32 = u32;
	this.tables = {};
	var n = u16(4), i;
	for (i = 0; i < n; i++) {
		var r = 12 + 16 * i;
		var tag = String.fromCharCode(b[r], b[r + 1], b[r + 2], b[r + 3]);
		this.tables[tag] = { offset: u32(r + 8), length: u32(r + 12) };
	}
	var head = this.tables["head"].offset;
	this.unitsPerEm = u16(head + 18);
	this.bbox = [i16(head + 36), i16(head + 38), i16(head + 40), i16(head + 42)];
	this.longLoca = i16(head + 50) === 1;
	var hhea = this.tables["hhea"].offset;
	this.ascent = i16(hhea + 4);
	this.descent = i16(hhea + 6);
	this.numberOfHMetrics = u16(hhea + 34);
	this.numGlyphs = u16(this.tables["maxp"].offset + 4);
	this.cmapCache = {};
	// Unicode BMP cmap (platform 3, encoding 1, format 4).
	var cmap = this.tables["cmap"].offset, sub = -1;
	for (i = 0; i < u16(cmap + 2); i++) {
		var rec = cmap + 4 + 8 * i;
		if (u16(rec) === 3 && u16(rec + 2) === 1) sub = cmap + u32(rec + 4);
	}
	if (sub < 0 || u16(sub) !== 4) throw new Error(path + ": no Unicode format-4 cmap");
	this.cmap4 = sub;
}

/** Glyph id for a Unicode code point (0 when the font has none). */
TrueType.prototype.glyph = function (cp) {
	if (cp in this.cmapCache) return this.cmapCache[cp];
	var u16 = this.u16, s = this.cmap4, segX2 = u16(s + 6), gid = 0, i;
	var ends = s + 14, starts = ends + segX2 + 2, deltas = starts + segX2, ranges = deltas + segX2;
	for (i = 0; i < segX2; i += 2) {
		if (u16(ends + i) < cp) continue;
		var start = u16(starts + i);
		if (start > cp) break;
		var ro = u16(ranges + i);
		if (ro === 0) gid = (cp + u16(deltas + i)) & 0xffff;
		else {
			var g = u16(ranges + i + ro + 2 * (cp - start));
			gid = g === 0 ? 0 : (g + u16(deltas + i)) & 0xffff;
		}
		break;
	}
	this.cmapCache[cp] = gid;
	return gid;
};

/** Advance width of a glyph in font units. */
TrueType.prototype.advance = function (gid) {
	var h = this.tables["hmtx"].offset;
	return this.u16(h + 4 * Math.min(gid, this.numberOfHMetrics - 1));
};

TrueType.prototype.glyphRange = function (gid) {
	var l = this.tables["loca"].offset, g = this.tables["glyf"].offset;
	if (this.longLoca) return [g + this.u32(l + 4 * gid), g + this.u32(l + 4 * gid + 4)];
	return [g + 2 * this.u16(l + 2 * gid), g + 2 * this.u16(l + 2 * gid + 2)];
};

/** Adds the components of composite glyphs to `used` (a set of glyph ids). */
TrueType.prototype.closeOverComponents = function (used) {
	var todo = Object.keys(used), k;
	while (todo.length) {
		var gid = +todo.pop(), r = this.glyphRange(gid);
		if (r[1] - r[0] < 10 || this.i16(r[0]) >= 0) continue;
		var o = r[0] + 10, flags;
		do {
			flags = this.u16(o);
			k = this.u16(o + 2);
			if (!used[k]) { used[k] = true; todo.push(k); }
			o += 4 + ((flags & 1) ? 4 : 2);
			if (flags & 8) o += 2; else if (flags & 0x40) o += 4; else if (flags & 0x80) o += 8;
		} while (flags & 0x20);
	}
};

/**
 * A TrueType file that keeps every glyph id but only the outlines of `used` glyphs, and
 * only the tables a PDF CIDFontType2 needs. Returns a Buffer.
 */
TrueType.prototype.subset = function (used) {
	var self = this, b = this.b;
	this.closeOverComponents(used);
	used[0] = true;
	function bytes(o, n) { var a = new Array(n); for (var i = 0; i < n; i++) a[i] = b[o + i]; return a; }
	function put32(a, v) { a.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255); }
	var glyf = [], loca = [], gid;
	for (gid = 0; gid < this.numGlyphs; gid++) {
		put32(loca, glyf.length);
		if (!used[gid]) continue;
		var r = this.glyphRange(gid), d = bytes(r[0], r[1] - r[0]);
		for (var i = 0; i < d.length; i++) glyf.push(d[i]);
		while (glyf.length % 4) glyf.push(0);
	}
	put32(loca, glyf.length);
	var out = {};
	["head", "hhea", "maxp", "hmtx", "OS/2", "post", "name", "cvt ", "fpgm", "prep"].forEach(function (tag) {
		var t = self.tables[tag];
		if (t) out[tag] = bytes(t.offset, t.length);
	});
	out["head"][8] = out["head"][9] = out["head"][10] = out["head"][11] = 0; // checkSumAdjustment
	out["head"][50] = 0; out["head"][51] = 1; // long loca
	out["loca"] = loca;
	out["glyf"] = glyf;
	var tags = Object.keys(out).sort(), n = tags.length, es = 0;
	while ((2 << es) <= n) es++;
	var header = [0, 1, 0, 0, n >> 8, n & 255];
	var sr = 16 << es;
	header.push(sr >> 8, sr & 255, es >> 8, es & 255, (16 * n - sr) >> 8, (16 * n - sr) & 255);
	var offset = 12 + 16 * n, body = [];
	tags.forEach(function (tag) {
		var t = out[tag], sum = 0, i;
		for (i = 0; i < t.length; i += 4)
			sum = (sum + (((t[i] << 24) >>> 0) + ((t[i + 1] || 0) << 16) + ((t[i + 2] || 0) << 8) + (t[i + 3] || 0))) % 4294967296;
		for (i = 0; i < 4; i++) header.push(tag.charCodeAt(i));
		put32(header, sum); put32(header, offset + body.length); put32(header, t.length);
		for (i = 0; i < t.length; i++) body.push(t[i]);
		while (body.length % 4) body.push(0);
	});
	var buf = new Buffer();
	header.forEach(function (x) { buf.writeByte(x); });
	body.forEach(function (x) { buf.writeByte(x); });
	return buf;
};

// ---------------------------------------------------------------- fonts in the PDF

/** A font the layout code uses; glyph use is recorded and embedded at the end. */
function EmbeddedFont(resName, file) {
	this.res = resName;
	this.tt = new TrueType(file);
	this.used = {};
	this.unicode = {};
	// Reserve the object now so pages can reference it; fill it in `finish`.
	this.ref = doc.addObject(doc.newDictionary());
}

/** Width of `text` at `size` points. */
EmbeddedFont.prototype.width = function (text, size) {
	var w = 0;
	for (var i = 0; i < text.length; i++) w += this.tt.advance(this.tt.glyph(text.charCodeAt(i)));
	return w * size / this.tt.unitsPerEm;
};

/** A hex string of glyph ids for `text`, in the order given (callers do bidi). */
EmbeddedFont.prototype.encode = function (text) {
	var s = "<";
	for (var i = 0; i < text.length; i++) {
		var cp = text.charCodeAt(i), gid = this.tt.glyph(cp);
		if (gid === 0 && cp !== 32) throw new Error(this.tt.path + " has no glyph for U+" + cp.toString(16));
		this.used[gid] = true;
		this.unicode[gid] = cp;
		s += (gid < 4096 ? (gid < 256 ? (gid < 16 ? "000" : "00") : "0") : "") + gid.toString(16);
	}
	return s + ">";
};

EmbeddedFont.prototype.finish = function () {
	var tt = this.tt, scale = 1000 / tt.unitsPerEm, self = this;
	var name = "LECTRN+" + (this.res === "FB" ? "DejaVuSans-Bold" : "DejaVuSans");
	var file = tt.subset(this.used);
	var fontFile = doc.addStream(file, { Length1: file.length });
	var gids = Object.keys(this.unicode).map(Number).sort(function (a, b) { return a - b; });
	var W = doc.newArray();
	gids.forEach(function (g) {
		W.push(g);
		var a = doc.newArray();
		a.push(Math.round(tt.advance(g) * scale));
		W.push(a);
	});
	function hex4(v) { var s = v.toString(16); while (s.length < 4) s = "0" + s; return "<" + s + ">"; }
	var cmap = "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n" +
		"1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n";
	for (var i = 0; i < gids.length; i += 100) {
		var chunk = gids.slice(i, i + 100);
		cmap += chunk.length + " beginbfchar\n";
		chunk.forEach(function (g) { cmap += hex4(g) + " " + hex4(self.unicode[g]) + "\n"; });
		cmap += "endbfchar\n";
	}
	cmap += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
	var descriptor = doc.addObject({
		Type: N("FontDescriptor"), FontName: N(name), Flags: 32,
		FontBBox: tt.bbox.map(function (v) { return Math.round(v * scale); }),
		ItalicAngle: 0, Ascent: Math.round(tt.ascent * scale), Descent: Math.round(tt.descent * scale),
		CapHeight: 729, StemV: this.res === "FB" ? 120 : 80, FontFile2: fontFile,
	});
	var cid = doc.addObject({
		Type: N("Font"), Subtype: N("CIDFontType2"), BaseFont: N(name),
		CIDSystemInfo: { Registry: S("Adobe"), Ordering: S("Identity"), Supplement: 0 },
		FontDescriptor: descriptor, DW: 1000, W: W, CIDToGIDMap: N("Identity"),
	});
	var dict = this.ref;
	dict.put("Type", N("Font"));
	dict.put("Subtype", N("Type0"));
	dict.put("BaseFont", N(name));
	dict.put("Encoding", N("Identity-H"));
	var desc = doc.newArray(); desc.push(cid);
	dict.put("DescendantFonts", desc);
	dict.put("ToUnicode", doc.addStream(cmap, {}));
};

var regular = new EmbeddedFont("F", FONT_DIR + "/DejaVuSans.ttf");
var bold = new EmbeddedFont("FB", FONT_DIR + "/DejaVuSans-Bold.ttf");

// ---------------------------------------------------------------- page building

var INK = "0.13 0.14 0.16", MUTED = "0.42 0.45 0.50", NAVY = "0.09 0.20 0.36",
	ACCENT = "0.80 0.36 0.16", LINK = "0.05 0.35 0.75", PAPER = "0.985 0.975 0.955";

/** One page under construction: a content stream, resources, and link rectangles. */
function Page(width, height, rotate) {
	this.w = width; this.h = height; this.rotate = rotate || 0;
	this.ops = [];
	this.links = []; // {rect, page} or {rect, uri}
	this.xobjects = {};
}
Page.prototype.op = function (s) { this.ops.push(s); return this; };
Page.prototype.rect = function (x, y, w, h, rgb) { return this.op(rgb + " rg " + x + " " + y + " " + w + " " + h + " re f"); };
Page.prototype.line = function (x0, y0, x1, y1, rgb, width) {
	return this.op(rgb + " RG " + (width || 1) + " w " + x0 + " " + y0 + " m " + x1 + " " + y1 + " l S");
};
/** Draws one line of text whose glyphs are already in visual order. */
Page.prototype.text = function (font, size, x, y, rgb, str) {
	return this.op("BT " + rgb + " rg /" + font.res + " " + size + " Tf " + x.toFixed(2) + " " + y.toFixed(2) + " Td " + font.encode(str) + " Tj ET");
};
Page.prototype.centered = function (font, size, y, rgb, str) {
	return this.text(font, size, (this.w - font.width(str, size)) / 2, y, rgb, str);
};

/** Breaks `str` into lines no wider than `width` (logical order). */
function wrap(font, size, str, width) {
	var words = str.split(" "), lines = [], cur = "";
	words.forEach(function (word) {
		var next = cur ? cur + " " + word : word;
		if (cur && font.width(next, size) > width) { lines.push(cur); cur = word; } else cur = next;
	});
	if (cur) lines.push(cur);
	return lines;
}

/** A left-aligned paragraph; returns the baseline below it. */
Page.prototype.para = function (font, size, x, y, width, rgb, str, leading) {
	var self = this;
	leading = leading || size * 1.45;
	wrap(font, size, str, width).forEach(function (l) { self.text(font, size, x, y, rgb, l); y -= leading; });
	return y - size * 0.6;
};

function isRTL(c) { return (c >= 0x0590 && c <= 0x05ff) || (c >= 0xfb1d && c <= 0xfb4f); }

/**
 * Visual order of one line of Hebrew text with embedded left-to-right runs: the runs are
 * laid out right to left, and characters inside right-to-left runs are reversed. Enough
 * of the Unicode bidi algorithm for this page (no brackets to mirror).
 */
function visualRTL(str) {
	var runs = [], i, cur = null;
	for (i = 0; i < str.length; i++) {
		var c = str.charCodeAt(i), dir = isRTL(c) ? "R" : (/[A-Za-z0-9]/.test(str[i]) ? "L" : "N");
		if (dir === "N") dir = cur ? cur.dir : "R";
		if (!cur || cur.dir !== dir) { cur = { dir: dir, s: "" }; runs.push(cur); }
		cur.s += str[i];
	}
	// Neutrals (spaces, punctuation) at the edges of an LTR run belong to the RTL context.
	runs.forEach(function (r) { if (r.dir === "R") r.s = r.s.split("").reverse().join(""); });
	return runs.reverse().map(function (r) { return r.s; }).join("");
}

/** A right-aligned right-to-left paragraph ending at `right`; returns the next baseline. */
Page.prototype.paraRTL = function (font, size, right, y, width, rgb, str, leading) {
	var self = this;
	leading = leading || size * 1.55;
	wrap(font, size, str, width).forEach(function (l) {
		var v = visualRTL(l);
		self.text(font, size, right - font.width(v, size), y, rgb, v);
		y -= leading;
	});
	return y - size * 0.6;
};

Page.prototype.link = function (x, y, w, h, target) { this.links.push({ rect: [x, y, x + w, y + h], target: target }); };

/** Text in link colour, underlined, with a link annotation over it. */
Page.prototype.linkText = function (font, size, x, y, str, target) {
	var w = font.width(str, size);
	this.text(font, size, x, y, LINK, str);
	this.line(x, y - size * 0.18, x + w, y - size * 0.18, LINK, Math.max(0.8, size / 22));
	this.link(x - 2, y - size * 0.35, w + 4, size * 1.35, target);
	return w;
};

Page.prototype.footer = function (label) {
	this.line(56, 48, this.w - 56, 48, "0.82 0.80 0.76", 0.6);
	this.text(regular, 9, 56, 32, MUTED, "Lectern sample document");
	this.text(regular, 9, this.w - 56 - regular.width(label, 9), 32, MUTED, label);
};

Page.prototype.heading = function (title, kicker) {
	this.rect(0, this.h - 10, this.w, 10, ACCENT);
	if (kicker) this.text(bold, 11, 56, this.h - 62, ACCENT, kicker.toUpperCase());
	this.text(bold, 30, 56, this.h - 100, NAVY, title);
	return this.h - 140;
};

var pages = [];
function newPage(w, h, rotate) {
	var p = new Page(w, h, rotate);
	p.rect(0, 0, w, h, PAPER);
	pages.push(p);
	return p;
}

// ---------------------------------------------------------------- the picture

/** A 480x270 RGB picture (a lake at dusk) computed here, so no binary is committed. */
function makePicture() {
	var W = 480, H = 270, buf = new Buffer(), x, y;
	function hill(x, base, amp, f1, f2, ph) {
		return base + amp * (0.6 * Math.sin(x * f1 + ph) + 0.4 * Math.sin(x * f2 + 2 * ph));
	}
	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++) {
			var t = y / 170, r, g, b;
			// sky: deep blue at the top to warm gold at the horizon
			r = 28 + t * (246 - 28); g = 52 + t * (186 - 52); b = 110 + t * (120 - 110);
			var dx = x - 330, dy = y - 140, d = Math.sqrt(dx * dx + dy * dy);
			if (d < 30) { r = 255; g = 236; b = 190; }
			else if (d < 90) { var k = (90 - d) / 60 * 0.35; r += (255 - r) * k; g += (226 - g) * k; b += (170 - b) * k; }
			if (y > hill(x, 150, 18, 0.013, 0.031, 0.5)) { r = 92; g = 86; b = 120; }
			if (y > hill(x, 168, 14, 0.021, 0.047, 2.0)) { r = 46; g = 58; b = 92; }
			if (y >= 182) {
				// water: the sky mirrored, darker, with a glitter path under the sun
				var m = 364 - y, tm = m / 170;
				r = (28 + tm * 218) * 0.55; g = (52 + tm * 134) * 0.6; b = (110 + tm * 10) * 0.75 + 20;
				if (Math.abs(x - 330) < 26 - (y - 182) * 0.12 && ((y * 7 + x) % 11) < 5) { r = 250; g = 214; b = 150; }
			}
			buf.writeByte(Math.min(255, Math.round(r)));
			buf.writeByte(Math.min(255, Math.round(g)));
			buf.writeByte(Math.min(255, Math.round(b)));
		}
	}
	return doc.addStream(buf, {
		Type: N("XObject"), Subtype: N("Image"), Width: W, Height: H,
		ColorSpace: N("DeviceRGB"), BitsPerComponent: 8, Interpolate: true,
	});
}

// ---------------------------------------------------------------- the pages

var A4W = 595, A4H = 842;
var P_COVER = 0, P_WELCOME = 1, P_TOUCH = 2, P_WIDE = 3, P_ROTATED = 4, P_LINKS = 5, P_HE1 = 6, P_HE2 = 7, P_END = 8;

// 1. Cover
(function () {
	var p = newPage(A4W, A4H);
	p.rect(0, A4H - 330, A4W, 330, NAVY);
	p.text(bold, 64, 56, A4H - 150, "1 1 1", "Lectern");
	p.text(regular, 22, 58, A4H - 196, "0.86 0.90 0.96", "A fullscreen PDF reader");
	p.text(regular, 22, 58, A4H - 226, "0.86 0.90 0.96", "for touchscreen kiosks");
	p.rect(58, A4H - 262, 64, 5, ACCENT);
	p.xobjects.Im1 = makePicture();
	p.op("q 483 0 0 272 56 " + (A4H - 330 - 236) + " cm /Im1 Do Q");
	var y = A4H - 604;
	p.text(bold, 13, 56, y, ACCENT, "IN THIS SAMPLE");
	y -= 30;
	[["Welcome", P_WELCOME], ["Reading with your fingers", P_TOUCH], ["A landscape page", P_WIDE],
		["A page stored sideways", P_ROTATED], ["Links", P_LINKS], ["\u05e2\u05d1\u05e8\u05d9\u05ea \u2014 right to left", P_HE1]
	].forEach(function (item, i) {
		var label = String(item[1]);
		p.text(regular, 15, 56, y, MUTED, label);
		var title = item[0];
		if (/[\u0590-\u05ff]/.test(title)) {
			// Hebrew word first, laid out right to left on its own.
			var he = title.split(" ")[0], rest = title.slice(he.length);
			var wHe = regular.width(he, 15);
			p.text(regular, 15, 84, y, LINK, visualRTL(he));
			p.text(regular, 15, 84 + wHe, y, LINK, rest);
			var w = wHe + regular.width(rest, 15);
			p.line(84, y - 3, 84 + w, y - 3, LINK, 0.8);
			p.link(82, y - 6, w + 4, 21, { page: item[1] });
		} else {
			p.linkText(regular, 15, 84, y, title, { page: item[1] });
		}
		y -= 26;
	});
	p.text(regular, 11, 56, 36, MUTED, "Swipe or tap the right edge to turn the page. Tap a blue line to follow it.");
})();

// 2. Welcome
(function () {
	var p = newPage(A4W, A4H), y = p.heading("Welcome", "Page 1"), x = 56, w = A4W - 112;
	y = p.para(regular, 15, x, y, w, INK,
		"Lectern shows one PDF document on a screen that people walk up to: the opening hours and map at a museum entrance, " +
		"the programme at a concert hall, a reading station in a library, the menu on a tablet fixed to a wall.", 23);
	y = p.para(regular, 15, x, y, w, INK,
		"It starts straight into the document, fills the whole screen and has no menus, title bars or windows to get lost in. " +
		"If something goes wrong with the file, it says so on the screen in plain words instead of going black.", 23);
	y = p.para(regular, 15, x, y, w, INK,
		"This sample is what Lectern opens when it is not given a file. It has a few kinds of page that a real document may " +
		"contain, so you can check that a new kiosk shows all of them well before the real content goes on it.", 23);
	y -= 6;
	p.rect(x, y - 86, w, 100, "0.93 0.95 0.98");
	p.rect(x, y - 86, 4, 100, NAVY);
	p.text(bold, 13, x + 20, y - 12, NAVY, "Under the hood");
	p.para(regular, 12.5, x + 20, y - 36, w - 40, INK,
		"MuPDF renders the pages, Pixman puts them on the screen, and the cage compositor keeps Lectern fullscreen " +
		"as the only thing a visitor can see. It is a native Wayland program written in Swift.", 18);
	p.footer("Page 1");
})();

// 3. Touch
(function () {
	var p = newPage(A4W, A4H), y = p.heading("Reading with your fingers", "Page 2"), x = 56, w = A4W - 112;
	y = p.para(regular, 15, x, y, w, INK, "Everything works with a finger. A mouse or keyboard does the same where one is connected.", 23);
	y -= 4;
	[["Swipe left or right", "turns the page. A quick flick turns one page; a slow drag follows your finger."],
		["Pinch", "zooms in around the point between your fingers. Pinch out again to see the whole page."],
		["Double tap", "zooms to the column of text you tapped, and back."],
		["Tap a link", "jumps to another page of the document. Links to web sites are shown, but a kiosk does not open them."],
		["Leave it alone", "after a while without a touch, Lectern goes back to the first page for the next visitor."],
	].forEach(function (item) {
		p.rect(x, y - 4, 10, 10, ACCENT);
		p.text(bold, 15, x + 24, y - 4 + 1, NAVY, item[0]);
		y = p.para(regular, 13.5, x + 24, y - 26, w - 24, INK, item[1], 20) - 8;
	});
	y -= 8;
	p.para(regular, 13.5, x, y, w, MUTED,
		"Try it on the next pages: the landscape page and the sideways page are laid out differently, and the Links page " +
		"takes you back here.", 20);
	p.footer("Page 2");
})();

// 4. Landscape page with a chart
(function () {
	var W = 842, H = 595, p = newPage(W, H), y = p.heading("A landscape page", "Page 3"), x = 56;
	y = p.para(regular, 14, x, y, W - 112, INK,
		"This page is wider than it is tall. On a landscape screen it fills the width; on a portrait screen it sits in the " +
		"middle with room above and below. The chart shows visitors per month at an imaginary museum.", 21);
	var data = [3.1, 2.8, 4.2, 5.6, 6.9, 8.4, 11.2, 12.5, 7.3, 5.2, 3.9, 6.8];
	var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
	var cx = 96, cy = 90, cw = W - 150, ch = y - 120, bw = cw / data.length;
	for (var g = 0; g <= 12; g += 3) {
		var gy = cy + ch * g / 13.5;
		p.line(cx, gy, cx + cw, gy, "0.85 0.84 0.80", 0.5);
		p.text(regular, 10, cx - 10 - regular.width(g + "k", 10), gy - 3.5, MUTED, g + "k");
	}
	data.forEach(function (v, i) {
		var bh = ch * v / 13.5, bx = cx + i * bw + bw * 0.18;
		p.rect(bx, cy, bw * 0.64, bh, i === 7 ? ACCENT : NAVY);
		p.text(regular, 10, bx + (bw * 0.64 - regular.width(months[i], 10)) / 2, cy - 16, MUTED, months[i]);
	});
	p.text(bold, 11, cx + 7 * bw + bw * 0.18 - 6, cy + ch * 12.5 / 13.5 + 8, ACCENT, "12.5k in August");
	p.footer("Page 3");
})();

// 5. Portrait media box with /Rotate 90: drawn turned a quarter counter-clockwise, so it
//    reads upright once the viewer applies the rotation (as a scanner would store it).
(function () {
	var p = newPage(A4W, A4H, 90);
	// Shown size is 842 x 595. Map shown coordinates (u, v) to stored (x, y) = (595 - v, u).
	var shown = new Page(A4H, A4W);
	shown.ops = [];
	shown.heading("A page stored sideways", "Page 4");
	shown.para(regular, 14, 56, A4W - 140, A4H - 112, INK,
		"This page is stored as a portrait page with a /Rotate 90 entry, the way a scanner or a phone saves a picture " +
		"taken sideways. Lectern turns it before showing it, so you are reading it the right way up.", 21);
	shown.rect(56, 250, 340, 130, "0.93 0.95 0.98");
	shown.text(bold, 14, 74, 350, NAVY, "How it is stored");
	shown.para(regular, 13, 74, 324, 300, INK, "A portrait MediaBox of 595 by 842 points, and /Rotate 90: a quarter turn clockwise.", 20);
	shown.rect(446, 250, 340, 130, "0.98 0.94 0.90");
	shown.text(bold, 14, 464, 350, ACCENT, "How it is shown");
	shown.para(regular, 13, 464, 324, 300, INK, "842 points wide and 595 tall, like the landscape page before it, with the text upright.", 20);
	shown.footer("Page 4");
	p.op("q 0 1 -1 0 " + A4W + " 0 cm");
	p.ops = p.ops.concat(shown.ops);
	p.op("Q");
	// Link rectangles are in stored (unrotated) coordinates; there are none on this page.
})();

// 6. Links
(function () {
	var p = newPage(A4W, A4H), y = p.heading("Links", "Page 5"), x = 56, w = A4W - 112;
	y = p.para(regular, 15, x, y, w, INK,
		"A PDF can link to its own pages and to the web. Lectern follows links inside the document. " +
		"Each blue line below is a link annotation over the text.", 23);
	y -= 6;
	p.text(bold, 15, x, y, NAVY, "Inside this document");
	y -= 30;
	p.linkText(regular, 15, x, y, "Back to the cover", { page: P_COVER }); y -= 28;
	p.linkText(regular, 15, x, y, "How touch works (page 2)", { page: P_TOUCH }); y -= 28;
	p.linkText(regular, 15, x, y, "The landscape page (page 3)", { page: P_WIDE }); y -= 28;
	p.linkText(regular, 15, x, y, "The Hebrew section (page 6)", { page: P_HE1 }); y -= 44;
	p.text(bold, 15, x, y, NAVY, "On the web");
	y -= 30;
	p.linkText(regular, 15, x, y, "https://mupdf.com", { uri: "https://mupdf.com" });
	y -= 22;
	y = p.para(regular, 12.5, x, y, w, MUTED, "MuPDF, the library that draws these pages.", 18);
	p.linkText(regular, 15, x, y, "https://github.com/cage-kiosk/cage", { uri: "https://github.com/cage-kiosk/cage" });
	y -= 22;
	y = p.para(regular, 12.5, x, y, w, MUTED, "cage, the kiosk compositor Lectern runs in.", 18);
	y -= 10;
	p.para(regular, 13.5, x, y, w, INK,
		"On a kiosk there is no browser, so a web link is not opened: Lectern can show its address instead. " +
		"Whether it does is a setting of the kiosk.", 20);
	p.footer("Page 5");
})();

// 7–8. Hebrew, right to left
var HE = {
	kicker: "\u05e2\u05de\u05d5\u05d3 6",
	title: "\u05de\u05d9\u05de\u05d9\u05df \u05dc\u05e9\u05de\u05d0\u05dc",
	p1: "\u05e2\u05de\u05d5\u05d3 \u05d6\u05d4 \u05db\u05ea\u05d5\u05d1 \u05d1\u05e2\u05d1\u05e8\u05d9\u05ea, \u05e9\u05e4\u05d4 \u05d4\u05e0\u05db\u05ea\u05d1\u05ea \u05de\u05d9\u05de\u05d9\u05df \u05dc\u05e9\u05de\u05d0\u05dc. \u05db\u05dc \u05e9\u05d5\u05e8\u05d4 \u05de\u05d9\u05d5\u05e9\u05e8\u05ea \u05dc\u05d9\u05de\u05d9\u05df, \u05d5\u05d4\u05de\u05d9\u05dc\u05d4 \u05d4\u05e8\u05d0\u05e9\u05d5\u05e0\u05d4 \u05e9\u05dc \u05db\u05dc \u05de\u05e9\u05e4\u05d8 \u05e0\u05de\u05e6\u05d0\u05ea \u05d1\u05e6\u05d3 \u05d9\u05de\u05d9\u05df \u05e9\u05dc \u05d4\u05e2\u05de\u05d5\u05d3.",
	p2: "\u05d4\u05ea\u05d5\u05db\u05e0\u05d4 \u05de\u05e6\u05d9\u05d2\u05d4 \u05de\u05e1\u05de\u05db\u05d9\u05dd \u05d1\u05de\u05e1\u05da \u05de\u05dc\u05d0 \u05d1\u05e2\u05de\u05d3\u05d5\u05ea \u05de\u05d9\u05d3\u05e2, \u05d1\u05e1\u05e4\u05e8\u05d9\u05d5\u05ea \u05d5\u05d1\u05de\u05d5\u05d6\u05d9\u05d0\u05d5\u05e0\u05d9\u05dd. \u05d0\u05e4\u05e9\u05e8 \u05dc\u05d3\u05e4\u05d3\u05e3 \u05d1\u05d9\u05df \u05d4\u05e2\u05de\u05d5\u05d3\u05d9\u05dd \u05d1\u05de\u05d2\u05e2, \u05dc\u05d4\u05d2\u05d3\u05d9\u05dc \u05d1\u05ea\u05e0\u05d5\u05e2\u05ea \u05e6\u05d1\u05d9\u05d8\u05d4 \u05d5\u05dc\u05dc\u05d7\u05d5\u05e5 \u05e2\u05dc \u05e7\u05d9\u05e9\u05d5\u05e8\u05d9\u05dd.",
	p3: "\u05d4\u05d0\u05d5\u05ea\u05d9\u05d5\u05ea \u05e0\u05e9\u05de\u05e8\u05d5\u05ea \u05d1\u05e7\u05d5\u05d1\u05e5 \u05d1\u05e1\u05d3\u05e8 \u05d4\u05e7\u05e8\u05d9\u05d0\u05d4, \u05db\u05da \u05e9\u05d0\u05e4\u05e9\u05e8 \u05dc\u05d7\u05e4\u05e9 \u05d1\u05d8\u05e7\u05e1\u05d8 \u05d5\u05dc\u05d1\u05d7\u05d5\u05e8 \u05d0\u05d5\u05ea\u05d5 \u05db\u05de\u05d5 \u05d1\u05db\u05dc \u05e2\u05de\u05d5\u05d3 \u05d0\u05d7\u05e8.",
	kicker2: "\u05e2\u05de\u05d5\u05d3 7",
	title2: "\u05d4\u05de\u05e9\u05da \u05d4\u05e7\u05e8\u05d9\u05d0\u05d4",
	p4: "\u05de\u05e1\u05de\u05da \u05e9\u05db\u05d5\u05dc\u05d5 \u05d1\u05e2\u05d1\u05e8\u05d9\u05ea \u05d9\u05db\u05d5\u05dc \u05dc\u05d1\u05e7\u05e9 \u05db\u05e8\u05d9\u05db\u05d4 \u05de\u05d9\u05de\u05d9\u05df. \u05d0\u05d6 \u05d4\u05e2\u05de\u05d5\u05d3 \u05d4\u05d1\u05d0 \u05e0\u05de\u05e6\u05d0 \u05de\u05e9\u05de\u05d0\u05dc, \u05d5\u05d4\u05d7\u05dc\u05e7\u05d4 \u05e7\u05d3\u05d9\u05de\u05d4 \u05d4\u05d9\u05d0 \u05ea\u05e0\u05d5\u05e2\u05d4 \u05de\u05e9\u05de\u05d0\u05dc \u05dc\u05d9\u05de\u05d9\u05df.",
	p5: "\u05d1\u05e2\u05de\u05d3\u05ea \u05de\u05d9\u05d3\u05e2 \u05d1\u05de\u05d5\u05d6\u05d9\u05d0\u05d5\u05df \u05d0\u05e4\u05e9\u05e8 \u05dc\u05d4\u05e6\u05d9\u05d2 \u05d0\u05ea \u05d0\u05d5\u05ea\u05d5 \u05de\u05e1\u05de\u05da \u05d1\u05db\u05de\u05d4 \u05e9\u05e4\u05d5\u05ea, \u05d5\u05db\u05dc \u05de\u05d1\u05e7\u05e8 \u05d9\u05d1\u05d7\u05e8 \u05d0\u05ea \u05d4\u05e9\u05e4\u05d4 \u05e9\u05dc\u05d5.",
	back: "\u05d7\u05d6\u05e8\u05d4 \u05dc\u05e2\u05de\u05d5\u05d3 \u05d4\u05e8\u05d0\u05e9\u05d5\u05df",
};

function hebrewPage(kicker, title, paragraphs, label, withBack) {
	var p = newPage(A4W, A4H), right = A4W - 56, w = A4W - 112;
	p.rect(0, A4H - 10, A4W, 10, ACCENT);
	var k = visualRTL(kicker);
	p.text(bold, 12, right - bold.width(k, 12), A4H - 62, ACCENT, k);
	var t = visualRTL(title);
	p.text(bold, 32, right - bold.width(t, 32), A4H - 102, NAVY, t);
	var y = A4H - 150;
	paragraphs.forEach(function (para) { y = p.paraRTL(regular, 19, right, y, w, INK, para, 31); });
	if (withBack) {
		var b = visualRTL(HE.back), bw = regular.width(b, 16);
		y -= 10;
		p.text(regular, 16, right - bw, y, LINK, b);
		p.line(right - bw, y - 3, right, y - 3, LINK, 0.8);
		p.link(right - bw - 2, y - 6, bw + 4, 22, { page: P_COVER });
	}
	p.footer(label);
	return p;
}
hebrewPage(HE.kicker, HE.title, [HE.p1, HE.p2, HE.p3], "Page 6", false);
hebrewPage(HE.kicker2, HE.title2, [HE.p4, HE.p5], "Page 7", true);

// 9. End
(function () {
	var p = newPage(A4W, A4H);
	p.rect(0, 0, A4W, A4H, NAVY);
	p.centered(bold, 40, A4H / 2 + 60, "1 1 1", "The end");
	p.centered(regular, 17, A4H / 2 + 18, "0.86 0.90 0.96", "You have reached the last page of the sample.");
	var s = "Back to the beginning", w = regular.width(s, 20), x = (A4W - w) / 2, y = A4H / 2 - 50;
	p.rect(x - 24, y - 16, w + 48, 48, ACCENT);
	p.text(regular, 20, x, y, "1 1 1", s);
	p.link(x - 24, y - 16, w + 48, 48, { page: P_COVER });
	p.text(regular, 9, 56, 32, "0.60 0.66 0.76", "Lectern sample document");
	p.text(regular, 9, A4W - 56 - regular.width("Page 8", 9), 32, "0.60 0.66 0.76", "Page 8");
})();

// ---------------------------------------------------------------- assemble

var fonts = { F: regular.ref, FB: bold.ref };
pages.forEach(function (p) {
	var res = { Font: fonts };
	if (Object.keys(p.xobjects).length) res.XObject = p.xobjects;
	var page = doc.addPage([0, 0, p.w, p.h], p.rotate, res, p.ops.join("\n"));
	doc.insertPage(-1, page);
});

pages.forEach(function (p, i) {
	if (!p.links.length) return;
	var annots = doc.newArray();
	p.links.forEach(function (l) {
		var action = l.target.uri !== undefined
			? { S: N("URI"), URI: S(l.target.uri) }
			: { S: N("GoTo"), D: [doc.findPage(l.target.page), N("Fit")] };
		annots.push(doc.addObject({
			Type: N("Annot"), Subtype: N("Link"), Rect: l.rect, Border: [0, 0, 0], A: action,
		}));
	});
	doc.findPage(i).put("Annots", annots);
});

regular.finish();
bold.finish();

var root = doc.getTrailer().get("Root");
// Page labels: the cover is "Cover", then 1, 2, 3, ... (what footers and the page indicator say).
root.put("PageLabels", doc.addObject({ Nums: [0, { P: S("Cover") }, 1, { S: N("D") }] }));
root.put("Lang", S("en"));
var info = doc.addObject({
	Title: S("Lectern sample document"),
	Subject: S("What Lectern, a fullscreen PDF reader for touchscreen kiosks, can show"),
	Creator: S("kiosk/sample/make-sample.js (mutool run)"),
	Producer: S("MuPDF"),
});
doc.getTrailer().put("Info", info);

doc.save(OUTPUT, "compress,garbage=deduplicate");
print("wrote " + OUTPUT + " (" + pages.length + " pages)");
