// CMuPDF tagged structure (CMuPDF_structure.h): the elements of a page's structure tree that
// speech needs, read with the pdf object API. MuPDF 1.21 itself does nothing with the tree: its
// fz_device has no marked-content calls (no begin_structure, no begin_metatext), so the structured
// text ignores /ActualText, in the tree and in BDC property lists alike, and nothing maps an MCID
// to the characters it marks: shim_marked_content.c measures what an MCID draws (figures' boxes,
// the glyphs an /ActualText replaces, the artifacts' glyphs), and the reader matches those glyphs
// to its characters. The tree comes from an untrusted file: the walks look at each indirect
// element once (cycles end), go no deeper than CMUPDF_STRUCTURE_DEPTH_MAX, look at no more than
// CMUPDF_STRUCTURE_NODES_MAX elements, and ignore keys of the wrong type.
#include "CMuPDF.h"
#include "shim_internal.h"

#include <stdlib.h>
#include <string.h>

/// How many /RoleMap steps are followed from an element's /S (a map in a cycle ends there).
#define ROLE_MAP_STEPS 8
/// How many MCIDs of a page are measured (figures' for their boxes, /ActualText elements' and
/// those with a /Lang of their own for their glyphs); elements past it keep none.
#define MEASURED_MCIDS_MAX 256
/// How many MCIDs of a page the parent tree is read for (a page's text has a few thousand at most).
#define PAGE_MCIDS_MAX 20000

typedef struct structure_walk {
    pdf_obj *role_map;
    int page;             // the page's object number
    unsigned char *seen;  // one bit per object number: the elements already looked at
    int seen_bits;
    int nodes;            // elements looked at
    CMuPDF_structure_element *out; // CMUPDF_STRUCTURE_ELEMENTS_MAX of them, malloc'd
    int count;
    // The MCIDs on the page to measure, of the figures (their boxes when they have no /BBox, and
    // their glyphs) and of the other elements with /ActualText (their glyphs); which element
    // (index in out) each is of.
    int mcids[MEASURED_MCIDS_MAX];
    int owners[MEASURED_MCIDS_MAX];
    int mcid_count;
    int numbers[CMUPDF_STRUCTURE_ELEMENTS_MAX]; // each listed element's object number (0: direct)
    int has_attribute_box[CMUPDF_STRUCTURE_ELEMENTS_MAX]; // its box is its /A /BBox
    int has_own_language[CMUPDF_STRUCTURE_ELEMENTS_MAX];  // it has a /Lang of its own (speech switches voice)
} structure_walk;

/// Whether `object` (an indirect element) was met before; marks it met. Object numbers outside
/// the cross-reference table count as met (they cannot be read anyway).
static int seen_before(fz_context *ctx, structure_walk *walk, pdf_obj *object) {
    if (!pdf_is_indirect(ctx, object)) return 0; // a direct dictionary is a tree: no cycle
    int number = pdf_to_num(ctx, object);
    if (number <= 0 || number >= walk->seen_bits) return 1;
    unsigned char bit = (unsigned char)(1u << (number & 7));
    if (walk->seen[number >> 3] & bit) return 1;
    walk->seen[number >> 3] |= bit;
    return 0;
}

/// The element's standard type through the /RoleMap: "Figure", "Formula", or another name.
static const char *role(fz_context *ctx, structure_walk *walk, pdf_obj *element) {
    pdf_obj *name = pdf_dict_get(ctx, element, PDF_NAME(S));
    for (int step = 0; pdf_is_name(ctx, name) && step < ROLE_MAP_STEPS; step++) {
        const char *text = pdf_to_name(ctx, name);
        if (!strcmp(text, "Figure") || !strcmp(text, "Formula")) return text;
        pdf_obj *mapped = pdf_dict_get(ctx, walk->role_map, name);
        if (!pdf_is_name(ctx, mapped)) return text;
        name = mapped;
    }
    return pdf_is_name(ctx, name) ? pdf_to_name(ctx, name) : "";
}

/// `page` when it is a page reference (a dictionary), else `inherited`.
static pdf_obj *page_or(fz_context *ctx, pdf_obj *page, pdf_obj *inherited) {
    return pdf_is_indirect(ctx, page) && pdf_is_dict(ctx, page) ? page : inherited;
}

static int is_page(fz_context *ctx, structure_walk *walk, pdf_obj *page) {
    return page && pdf_to_num(ctx, page) == walk->page;
}

/// A kid that is marked content rather than an element: an MCID, or an /MCR or /OBJR dictionary.
static int is_content(fz_context *ctx, pdf_obj *kid) {
    if (pdf_is_int(ctx, kid)) return 1;
    if (!pdf_is_dict(ctx, kid)) return 0;
    pdf_obj *type = pdf_dict_get(ctx, kid, PDF_NAME(Type));
    const char *name = pdf_to_name(ctx, type); // "" for what is not a name
    return !strcmp(name, "MCR") || !strcmp(name, "OBJR");
}

/// Whether the element (its /K `kids`, its page `page`) is on the walk's page (see the header).
static int on_page(fz_context *ctx, structure_walk *walk, pdf_obj *kids, pdf_obj *page) {
    int n = pdf_is_array(ctx, kids) ? pdf_array_len(ctx, kids) : 1, has_content = 0;
    for (int i = 0; i < n; i++) {
        pdf_obj *kid = pdf_is_array(ctx, kids) ? pdf_array_get(ctx, kids, i) : kids;
        if (!is_content(ctx, kid)) continue;
        has_content = 1;
        pdf_obj *kid_page = pdf_is_dict(ctx, kid) ? page_or(ctx, pdf_dict_gets(ctx, kid, "Pg"), page) : page;
        if (is_page(ctx, walk, kid_page)) return 1;
    }
    return !has_content && is_page(ctx, walk, page);
}

/// Notes `mcid` to be measured for element `owner`, if it needs it (see structure_walk); the
/// element's index, or -1.
static void note_mcid(structure_walk *walk, int mcid, int owner) {
    if (owner < 0 || walk->mcid_count >= MEASURED_MCIDS_MAX) return;
    if (walk->out[owner].kind != CMUPDF_STRUCTURE_FIGURE && !walk->out[owner].actual_text &&
        !walk->has_own_language[owner])
        return;
    walk->mcids[walk->mcid_count] = mcid;
    walk->owners[walk->mcid_count++] = owner;
}

/// Notes the MCIDs on the walk's page among `kids` (an MCID, or an /MCR in the page's own content,
/// not a form's /Stm) as those of element `owner`.
static void note_mcids(fz_context *ctx, structure_walk *walk, pdf_obj *kids, pdf_obj *page, int owner) {
    int n = pdf_is_array(ctx, kids) ? pdf_array_len(ctx, kids) : 1;
    for (int i = 0; i < n && walk->mcid_count < MEASURED_MCIDS_MAX; i++) {
        pdf_obj *kid = pdf_is_array(ctx, kids) ? pdf_array_get(ctx, kids, i) : kids;
        pdf_obj *mcid = kid, *kid_page = page;
        if (pdf_is_dict(ctx, kid)) {
            if (pdf_dict_gets(ctx, kid, "Stm")) continue;
            mcid = pdf_dict_get(ctx, kid, PDF_NAME(MCID));
            kid_page = page_or(ctx, pdf_dict_gets(ctx, kid, "Pg"), page);
        }
        if (!pdf_is_int(ctx, mcid) || pdf_to_int(ctx, mcid) < 0 || !is_page(ctx, walk, kid_page)) continue;
        note_mcid(walk, pdf_to_int(ctx, mcid), owner);
    }
}

/// A malloc'd copy of the text string `object`, cut to CMUPDF_STRUCTURE_TEXT_MAX bytes at a
/// character's boundary; NULL when it is not a string.
static char *copy_text(fz_context *ctx, pdf_obj *object) {
    if (!pdf_is_string(ctx, object)) return NULL;
    const char *text = pdf_to_text_string(ctx, object);
    size_t length = strlen(text);
    if (length > CMUPDF_STRUCTURE_TEXT_MAX) {
        length = CMUPDF_STRUCTURE_TEXT_MAX;
        while (length > 0 && ((unsigned char)text[length] & 0xC0) == 0x80) length--;
    }
    char *copy = malloc(length + 1);
    if (!copy) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory copying a structure element's text");
    memcpy(copy, text, length);
    copy[length] = 0;
    return copy;
}

/// The /BBox of the element's attributes (/A: a dictionary or an array of them), if any.
static int attribute_box(fz_context *ctx, pdf_obj *element, float box[4]) {
    pdf_obj *attributes = pdf_dict_get(ctx, element, PDF_NAME(A));
    int n = pdf_is_array(ctx, attributes) ? pdf_array_len(ctx, attributes) : 1;
    for (int i = 0; i < n && i < 16; i++) {
        pdf_obj *attribute = pdf_is_array(ctx, attributes) ? pdf_array_get(ctx, attributes, i) : attributes;
        pdf_obj *bbox = pdf_dict_get(ctx, attribute, PDF_NAME(BBox));
        if (!pdf_is_array(ctx, bbox) || pdf_array_len(ctx, bbox) != 4) continue;
        int numbers = 1;
        for (int k = 0; k < 4; k++) numbers &= pdf_is_number(ctx, pdf_array_get(ctx, bbox, k));
        if (!numbers) continue;
        fz_rect rect = pdf_to_rect(ctx, bbox); // normalised
        if (fz_is_empty_rect(rect)) continue;
        box[0] = rect.x0, box[1] = rect.y0, box[2] = rect.x1, box[3] = rect.y1;
        return 1;
    }
    return 0;
}

/// Adds `element` (its depth, page and language known) to the page's elements when speech needs
/// it and it is on the page (`reached`: it was reached from the page's marked content, so it is).
/// Returns its index among them, or -1.
static int add_element(fz_context *ctx, structure_walk *walk, pdf_obj *element, int depth, pdf_obj *page,
                       const char *language, int reached) {
    pdf_obj *kids = pdf_dict_get(ctx, element, PDF_NAME(K));
    const char *type = role(ctx, walk, element);
    int kind = !strcmp(type, "Figure")    ? CMUPDF_STRUCTURE_FIGURE
               : !strcmp(type, "Formula") ? CMUPDF_STRUCTURE_FORMULA
                                          : CMUPDF_STRUCTURE_OTHER;
    pdf_obj *alt = pdf_dict_get(ctx, element, PDF_NAME(Alt));
    pdf_obj *actual = pdf_dict_get(ctx, element, PDF_NAME(ActualText));
    pdf_obj *own_language = pdf_dict_get(ctx, element, PDF_NAME(Lang));
    int wanted = kind != CMUPDF_STRUCTURE_OTHER || pdf_is_string(ctx, alt) || pdf_is_string(ctx, actual) ||
                 pdf_is_string(ctx, own_language);
    // A container reached from its content (a section with /Lang) is listed only for content of its own.
    int here = reached && kind != CMUPDF_STRUCTURE_OTHER ? 1 : on_page(ctx, walk, kids, page);
    if (!wanted || !here || walk->count >= CMUPDF_STRUCTURE_ELEMENTS_MAX) return -1;
    CMuPDF_structure_element *out = &walk->out[walk->count];
    walk->numbers[walk->count] = pdf_to_num(ctx, element);
    out->kind = kind;
    out->depth = depth;
    out->has_box = walk->has_attribute_box[walk->count] = attribute_box(ctx, element, out->box);
    walk->has_own_language[walk->count] = pdf_is_string(ctx, own_language);
    fz_strlcpy(out->language, language, sizeof out->language);
    walk->count++; // before the copies: a throw there frees what was copied
    out->alt = copy_text(ctx, alt);
    out->actual_text = copy_text(ctx, actual);
    return walk->count - 1;
}

/// The language of `element`: its own /Lang, else `inherited`, into `language` (16 bytes; it may
/// be `inherited`).
static void element_language(fz_context *ctx, pdf_obj *element, const char *inherited, char *language) {
    pdf_obj *own = pdf_dict_get(ctx, element, PDF_NAME(Lang));
    if (pdf_is_string(ctx, own)) fz_strlcpy(language, pdf_to_text_string(ctx, own), 16);
    else if (language != inherited) fz_strlcpy(language, inherited, 16);
}

/// Whether `a` and `b` are the same object (indirect objects by their number).
static int same_object(fz_context *ctx, pdf_obj *a, pdf_obj *b) {
    if (a == b) return 1;
    return pdf_is_indirect(ctx, a) && pdf_is_indirect(ctx, b) && pdf_to_num(ctx, a) == pdf_to_num(ctx, b);
}

/// The whole tree, depth first from `element`: for a page that the parent tree does not index.
static void visit_element(fz_context *ctx, structure_walk *walk, pdf_obj *element, int depth, pdf_obj *page,
                          const char *language) {
    if (!pdf_is_dict(ctx, element) || is_content(ctx, element)) return;
    if (depth > CMUPDF_STRUCTURE_DEPTH_MAX || walk->nodes >= CMUPDF_STRUCTURE_NODES_MAX) return;
    if (seen_before(ctx, walk, element)) return;
    walk->nodes++;
    page = page_or(ctx, pdf_dict_gets(ctx, element, "Pg"), page);
    char here[16];
    element_language(ctx, element, language, here);
    pdf_obj *kids = pdf_dict_get(ctx, element, PDF_NAME(K));
    int index = add_element(ctx, walk, element, depth, page, here, 0);
    if (index >= 0) note_mcids(ctx, walk, kids, page, index);
    int n = pdf_is_array(ctx, kids) ? pdf_array_len(ctx, kids) : 1;
    for (int i = 0; i < n && walk->nodes < CMUPDF_STRUCTURE_NODES_MAX; i++)
        visit_element(ctx, walk, pdf_is_array(ctx, kids) ? pdf_array_get(ctx, kids, i) : kids, depth + 1, page,
                      here);
}

/// The value of `key` in the number tree `node` (/Nums, /Kids with /Limits); NULL when absent.
/// Looks at no more than `*budget` nodes (a tree whose /Kids loop ends there).
static pdf_obj *lookup_number(fz_context *ctx, pdf_obj *node, int key, int depth, int *budget) {
    if (!pdf_is_dict(ctx, node) || depth > CMUPDF_STRUCTURE_DEPTH_MAX || --*budget < 0) return NULL;
    pdf_obj *nums = pdf_dict_gets(ctx, node, "Nums");
    for (int i = 0; i + 1 < pdf_array_len(ctx, nums); i += 2) {
        pdf_obj *number = pdf_array_get(ctx, nums, i);
        if (pdf_is_int(ctx, number) && pdf_to_int(ctx, number) == key) return pdf_array_get(ctx, nums, i + 1);
    }
    pdf_obj *kids = pdf_dict_gets(ctx, node, "Kids");
    for (int i = 0; i < pdf_array_len(ctx, kids) && *budget > 0; i++) {
        pdf_obj *kid = pdf_array_get(ctx, kids, i);
        pdf_obj *limits = pdf_dict_gets(ctx, kid, "Limits");
        if (pdf_array_len(ctx, limits) == 2 &&
            (key < pdf_array_get_int(ctx, limits, 0) || key > pdf_array_get_int(ctx, limits, 1)))
            continue;
        pdf_obj *found = lookup_number(ctx, kid, key, depth + 1, budget);
        if (found) return found;
    }
    return NULL;
}

/// The page's elements through the tree's /ParentTree: the page's /StructParents entry lists the
/// element of each MCID; each is read with its ancestors (/P), the nearest to the root first, in
/// the order of the MCIDs. Looks at the page's elements only, not the whole tree. Returns 0 when
/// the page is not indexed there (no /StructParents, no such entry): the whole tree is walked.
static int walk_parent_tree(fz_context *ctx, structure_walk *walk, pdf_obj *root, pdf_obj *page) {
    pdf_obj *key = pdf_dict_gets(ctx, page, "StructParents");
    if (!pdf_is_int(ctx, key)) return 0;
    int budget = 10000;
    pdf_obj *list = lookup_number(ctx, pdf_dict_gets(ctx, root, "ParentTree"), pdf_to_int(ctx, key), 0, &budget);
    if (!pdf_is_array(ctx, list)) return 0;
    int n = pdf_array_len(ctx, list) < PAGE_MCIDS_MAX ? pdf_array_len(ctx, list) : PAGE_MCIDS_MAX;
    for (int mcid = 0; mcid < n && walk->nodes < CMUPDF_STRUCTURE_NODES_MAX; mcid++) {
        pdf_obj *chain[CMUPDF_STRUCTURE_DEPTH_MAX];
        int length = 0;
        for (pdf_obj *element = pdf_array_get(ctx, list, mcid); length < CMUPDF_STRUCTURE_DEPTH_MAX;
             element = pdf_dict_get(ctx, element, PDF_NAME(P))) {
            if (!pdf_is_dict(ctx, element) || is_content(ctx, element) || same_object(ctx, element, root)) break;
            if (!strcmp(pdf_to_name(ctx, pdf_dict_get(ctx, element, PDF_NAME(Type))), "StructTreeRoot")) break;
            int again = 0; // a /P that loops
            for (int i = 0; i < length; i++) again |= same_object(ctx, chain[i], element);
            if (again) break;
            chain[length++] = element;
        }
        char language[16] = "";
        pdf_obj *element_page = page;
        for (int i = length - 1; i >= 0; i--) {
            pdf_obj *element = chain[i];
            element_language(ctx, element, language, language);
            element_page = page_or(ctx, pdf_dict_gets(ctx, element, "Pg"), element_page);
            int index = -1;
            if (!seen_before(ctx, walk, element)) {
                walk->nodes++;
                index = add_element(ctx, walk, element, length - i, element_page, language, 1);
            } else {
                for (int k = 0; k < walk->count && index < 0; k++)
                    if (walk->numbers[k] == pdf_to_num(ctx, element) && walk->numbers[k] > 0) index = k;
            }
            note_mcid(walk, mcid, index); // for every figure or /ActualText element it is inside
        }
    }
    return 1;
}

/// Gives the figures without /BBox the box of what their marked content draws on the page, the
/// figures and the other /ActualText elements the glyphs theirs draws, and lists the artifacts'
/// glyphs as an element of their own after the others. A page whose content cannot be interpreted leaves them
/// without (figures are then said after the page's text).
static void measure_marks(CMuPDF_document *document, structure_walk *walk) {
    fz_context *ctx = document->ctx;
    fz_rect boxes[MEASURED_MCIDS_MAX];
    shim_marked_glyph *glyphs = NULL;
    int glyph_count = 0;
    pdf_obj *page = NULL;
    fz_var(page);
    fz_var(glyphs);
    fz_try(ctx) {
        glyphs = fz_malloc_array(ctx, CMUPDF_STRUCTURE_GLYPHS_MAX, shim_marked_glyph);
        page = pdf_load_object(ctx, document->pdf, walk->page);
        shim_marked_content_boxes(ctx, document->pdf, page, walk->mcids, walk->mcid_count, boxes, glyphs,
                                  CMUPDF_STRUCTURE_GLYPHS_MAX, &glyph_count);
    }
    fz_always(ctx) pdf_drop_obj(ctx, page);
    fz_catch(ctx) {
        fz_free(ctx, glyphs);
        fz_warn(ctx, "cannot find where the tagged elements of a page are drawn: %s", fz_caught_message(ctx));
        return;
    }
    for (int i = 0; i < walk->mcid_count; i++) {
        CMuPDF_structure_element *out = &walk->out[walk->owners[i]];
        if (out->kind != CMUPDF_STRUCTURE_FIGURE || walk->has_attribute_box[walk->owners[i]]) continue;
        if (fz_is_empty_rect(boxes[i]) || fz_is_infinite_rect(boxes[i])) continue;
        fz_rect box = fz_make_rect(out->box[0], out->box[1], out->box[2], out->box[3]);
        box = out->has_box ? fz_union_rect(box, boxes[i]) : boxes[i];
        out->box[0] = box.x0, out->box[1] = box.y0, out->box[2] = box.x1, out->box[3] = box.y1;
        out->has_box = 1;
    }
    // The artifacts, an element of their own after the others.
    int artifacts = walk->count;
    for (int g = 0; g < glyph_count && artifacts == walk->count; g++)
        if (glyphs[g].mark < 0) walk->out[walk->count++].kind = CMUPDF_STRUCTURE_ARTIFACT;
    // Each element's glyphs, in the order they are drawn (plain malloc: freed by CMuPDF_structure_free).
    for (int g = 0; g < glyph_count; g++) {
        int owner = glyphs[g].mark < 0 ? artifacts : walk->owners[glyphs[g].mark];
        CMuPDF_structure_element *out = &walk->out[owner];
        if (!out->glyphs) {
            int n = 0;
            for (int k = g; k < glyph_count; k++)
                n += (glyphs[k].mark < 0 ? artifacts : walk->owners[glyphs[k].mark]) == owner;
            out->glyphs = malloc(sizeof(float) * 4 * (size_t)n);
            if (!out->glyphs) break; // out of memory: the rest keep no glyphs
        }
        fz_rect box = glyphs[g].box;
        float *into = out->glyphs + 4 * out->glyph_count++;
        into[0] = box.x0, into[1] = box.y0, into[2] = box.x1, into[3] = box.y1;
    }
    fz_free(ctx, glyphs);
}

/// Walks the tree under doc_lock (inside fz_try): fills walk->out.
static void walk_locked(CMuPDF_document *document, int index, structure_walk *walk) {
    fz_context *ctx = document->ctx;
    pdf_document *pdf = document->pdf;
    pdf_obj *root = pdf_dict_gets(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, pdf), PDF_NAME(Root)), "StructTreeRoot");
    if (!pdf_is_dict(ctx, root)) return;
    shim_walk_to_page_locked(document, index);
    walk->page = document->walk.pages[index];
    if (walk->page <= 0) return; // the page's object is gone
    walk->role_map = pdf_dict_gets(ctx, root, "RoleMap");
    walk->seen_bits = pdf_xref_len(ctx, pdf);
    walk->seen = calloc((size_t)walk->seen_bits / 8 + 1, 1);
    if (!walk->seen) fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory walking the structure tree");
    seen_before(ctx, walk, root);
    pdf_obj *page = pdf_load_object(ctx, pdf, walk->page);
    int indexed = 0;
    fz_try(ctx) indexed = walk_parent_tree(ctx, walk, root, page);
    fz_always(ctx) pdf_drop_obj(ctx, page);
    fz_catch(ctx) fz_rethrow(ctx);
    if (!indexed) {
        pdf_obj *kids = pdf_dict_get(ctx, root, PDF_NAME(K));
        int n = pdf_is_array(ctx, kids) ? pdf_array_len(ctx, kids) : 1;
        for (int i = 0; i < n && walk->nodes < CMUPDF_STRUCTURE_NODES_MAX; i++)
            visit_element(ctx, walk, pdf_is_array(ctx, kids) ? pdf_array_get(ctx, kids, i) : kids, 1, NULL, "");
    }
    measure_marks(document, walk);
}

int CMuPDF_page_structure(CMuPDF_document *document, int index, CMuPDF_structure_element **elements, int *count,
                          CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    *elements = NULL;
    *count = 0;
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK || !document->pdf) return status; // other formats have no structure tree
    structure_walk walk = {0};
    walk.out = calloc(CMUPDF_STRUCTURE_ELEMENTS_MAX + 1, sizeof *walk.out); // + the artifacts
    if (!walk.out) {
        shim_set_error(error, CMUPDF_ERROR_MEMORY, "out of memory reading the structure tree");
        return CMUPDF_ERROR_MEMORY;
    }
    fz_context *ctx = shim_enter(document);
    fz_try(ctx) walk_locked(document, index, &walk);
    fz_catch(ctx) status = shim_caught(ctx, error);
    status = shim_leave(document, status);
    free(walk.seen);
    if (status != CMUPDF_OK) {
        CMuPDF_structure_free(walk.out, walk.count);
        return status;
    }
    if (walk.count == 0) {
        free(walk.out);
        return CMUPDF_OK;
    }
    *elements = walk.out;
    *count = walk.count;
    return CMUPDF_OK;
}

void CMuPDF_structure_free(CMuPDF_structure_element *elements, int count) {
    if (!elements) return;
    for (int i = 0; i < count; i++) {
        free(elements[i].alt);
        free(elements[i].actual_text);
        free(elements[i].glyphs);
    }
    free(elements);
}
