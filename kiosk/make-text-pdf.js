// Generates a large text-only PDF for the time-to-first-frame benchmark.
//
// Usage: mutool run kiosk/make-text-pdf.js OUTPUT.pdf [PAGES] [a4|letter]   (default 400 A4 pages)
// (kiosk/make-text-pdf is the wrapper.)
//
// Every page is A4 (or US Letter) with about 60 lines of dense, ragged-right body text in Times-Roman
// (a base-14 font, not embedded) and a running head and page number of its own. To stay
// fast and small at 15,000 pages, the body text comes from 64 distinct streams that pages
// share in turn; each page also has its own small stream with its head and number, so no
// two pages look the same. Output is deterministic for a given page count.

"use strict";

var OUTPUT = scriptArgs[0];
var PAGES = scriptArgs[1] ? parseInt(scriptArgs[1], 10) : 400;
var PAPER = scriptArgs[2] || "a4";
if (!OUTPUT || !(PAGES > 0) || (PAPER != "a4" && PAPER != "letter")) {
	print("usage: mutool run make-text-pdf.js OUTPUT.pdf [PAGES] [a4|letter]");
	quit(2);
}
// Page width and height in points.
var W = PAPER == "letter" ? 612 : 595, H = PAPER == "letter" ? 792 : 842;

var doc = new PDFDocument();
var font = new Font("Times-Roman");
var fontRes = doc.addSimpleFont(font, "Latin");
var boldRes = doc.addSimpleFont(new Font("Times-Bold"), "Latin");

var seed = 12345;
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 2147483648 * n); }

var WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which but have " +
	"an they you were her all she there would their we him been has when who will more no if out so said what up its " +
	"about into than them can only other new some could time these two may then do first any my now such like our over " +
	"man me even most made after also did many before must through back years where much your way well down should " +
	"because each just those people how too little state good very make world still own see men work long get here " +
	"between both life being under never day same another know while last might us great old year off come since " +
	"against go came right used take three library reading visitors collection archive manuscript chapter volume " +
	"museum exhibition catalogue harbour river mountain village winter summer letters journal morning evening light " +
	"window garden history account record evidence council market bridge north south century language printing paper").split(" ");

var widthCache = {};
function width(s, size) {
	var w = 0;
	for (var i = 0; i < s.length; i++) {
		var c = s.charCodeAt(i);
		if (!(c in widthCache)) widthCache[c] = font.advanceGlyph(font.encodeCharacter(c), 0);
		w += widthCache[c];
	}
	return w * size;
}

function sentence() {
	var n = 6 + rnd(16), out = [];
	for (var i = 0; i < n; i++) {
		var w = WORDS[rnd(WORDS.length)];
		if (i === 0) w = w.charAt(0).toUpperCase() + w.slice(1);
		else if (i < n - 1 && rnd(9) === 0) w += ",";
		out.push(w);
	}
	if (rnd(12) === 0) out.splice(1 + rnd(n - 1), 0, String(1700 + rnd(320)));
	return out.join(" ") + (rnd(10) === 0 ? ";" : ".");
}

function escape(s) { return s.replace(/[\\()]/g, "\\$&"); }

var SIZE = 10.5, LEADING = 12.6, LEFT = 62, RIGHT = W - 62, TOP = H - 88, BOTTOM = 70;

/** One body stream: paragraphs of wrapped text filling the text block. */
function body() {
	var ops = ["BT /F1 " + SIZE + " Tf " + LEADING + " TL 0.1 0.1 0.1 rg " + LEFT + " " + TOP + " Td"];
	var y = TOP, first = true;
	while (y > BOTTOM + LEADING) {
		var words = [], n = 3 + rnd(6), i;
		for (i = 0; i < n; i++) words = words.concat(sentence().split(" "));
		var line = first ? "" : "    ", lineWidth = width(line, SIZE), space = width(" ", SIZE);
		for (i = 0; i < words.length && y > BOTTOM + LEADING; i++) {
			var empty = line === "" || line === "    ", w = width(words[i], SIZE);
			if (!empty && lineWidth + space + w > RIGHT - LEFT) {
				ops.push("(" + escape(line) + ") Tj T*");
				y -= LEADING;
				line = words[i];
				lineWidth = w;
			} else {
				line = empty ? line + words[i] : line + " " + words[i];
				lineWidth += empty ? w : space + w;
			}
		}
		if (y > BOTTOM + LEADING) { ops.push("(" + escape(line) + ") Tj T*"); y -= LEADING; }
		first = false;
	}
	ops.push("ET");
	return doc.addStream(ops.join("\n"), {});
}

var BODIES = Math.min(64, PAGES), bodies = [], i;
for (i = 0; i < BODIES; i++) bodies.push(body());

var CHAPTERS = ["The Harbour Records", "Letters from the North", "On Printing and Paper", "The Winter Market",
	"A History of the Bridge", "Notes on the Collection", "The Village Journal", "Evening Lectures"];
var resources = doc.addObject({ Font: { F1: fontRes, F2: boldRes } });
// The page tree is built here, not with insertPage (which is quadratic in the page count):
// the root holds nodes of up to 100 pages each, like the balanced trees real tools write.
var rootPages = doc.getTrailer().get("Root").get("Pages"), rootKids = doc.newArray(), node = null;
for (i = 0; i < PAGES; i++) {
	var chapter = CHAPTERS[Math.floor(i / 24) % CHAPTERS.length], num = String(i + 1);
	var head = "BT /F2 9 Tf 0.35 0.35 0.35 rg " + LEFT + " " + (H - 56) + " Td (" + escape(chapter.toUpperCase()) + ") Tj ET\n" +
		"0.6 0.6 0.6 RG 0.5 w " + LEFT + " " + (H - 64) + " m " + RIGHT + " " + (H - 64) + " l S\n" +
		"BT /F1 10 Tf 0.2 0.2 0.2 rg " + ((W - width(num, 10)) / 2).toFixed(2) + " 40 Td (" + num + ") Tj ET";
	var contents = doc.newArray();
	contents.push(doc.addStream(head, {}));
	contents.push(bodies[i % BODIES]);
	if (i % 100 === 0) {
		node = doc.addObject({ Type: doc.newName("Pages"), Parent: rootPages, Kids: doc.newArray(), Count: 0 });
		rootKids.push(node);
	}
	var page = doc.addObject({
		Type: doc.newName("Page"), Parent: node, MediaBox: [0, 0, W, H], Resources: resources, Contents: contents,
	});
	node.get("Kids").push(page);
	node.put("Count", node.get("Count") + 1);
}
rootPages.put("Kids", rootKids);
rootPages.put("Count", PAGES);

var info = doc.addObject({ Title: doc.newString("Lectern benchmark text, " + PAGES + " pages"), Creator: doc.newString("kiosk/make-text-pdf.js") });
doc.getTrailer().put("Info", info);
doc.save(OUTPUT, "compress,garbage");
print("wrote " + OUTPUT + " (" + PAGES + " pages)");
