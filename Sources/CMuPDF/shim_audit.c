// CMuPDF audit (CMuPDF_audit.h): the facts of a document audit the other entry points do not read.
// The document, its locks and its contexts stay in shim.c; the page's text comes through
// CMuPDF_internal_visit_stext, its fonts from its page object under doc_lock.
#include "CMuPDF.h"
#include "shim_internal.h"

#include <string.h>

/// How deep form XObjects are followed for their fonts, and how many resource dictionaries are
/// looked at in all (a malformed file's loops end there).
#define AUDIT_FORM_DEPTH 4
#define AUDIT_RESOURCES_MAX 256

int CMuPDF_document_audit_read(CMuPDF_document *document, CMuPDF_document_audit *audit, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    memset(audit, 0, sizeof *audit);
    fz_context *ctx = shim_enter(document);
    int status = CMUPDF_OK;
    fz_try(ctx) {
        pdf_document *pdf = pdf_specifics(ctx, document->doc);
        if (pdf) {
            pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, pdf), PDF_NAME(Root));
            pdf_obj *marked = pdf_dict_getp(ctx, root, "MarkInfo/Marked");
            audit->tagged = pdf_to_bool(ctx, marked) || pdf_is_dict(ctx, pdf_dict_gets(ctx, root, "StructTreeRoot"));
            audit->encrypted = pdf->crypt != NULL;
            pdf_obj *lang = pdf_dict_get(ctx, root, PDF_NAME(Lang));
            if (pdf_is_string(ctx, lang)) fz_strlcpy(audit->language, pdf_to_text_string(ctx, lang), sizeof audit->language);
        }
    }
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}

static void visit_sizes(fz_context *ctx, fz_stext_page *text, fz_matrix to_user, void *user) {
    (void)ctx;
    (void)to_user;
    CMuPDF_page_audit *audit = user;
    for (fz_stext_block *block = text->first_block; block; block = block->next) {
        if (block->type != FZ_STEXT_BLOCK_TEXT) continue;
        for (fz_stext_line *line = block->u.t.first_line; line; line = line->next)
            for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
                if (ch->c == ' ' || ch->c == '\t' || ch->c == 0xA0 || !(ch->size > 0)) continue;
                audit->characters++;
                if (audit->smallest_size == 0 || ch->size < audit->smallest_size) audit->smallest_size = ch->size;
            }
    }
}

/// Whether `font` (a font dictionary) carries its font program, or is a Type3 font (drawn by its
/// own procedures).
static int font_is_embedded(fz_context *ctx, pdf_obj *font) {
    pdf_obj *subtype = pdf_dict_get(ctx, font, PDF_NAME(Subtype));
    if (pdf_name_eq(ctx, subtype, PDF_NAME(Type3))) return 1;
    if (pdf_name_eq(ctx, subtype, PDF_NAME(Type0)))
        font = pdf_array_get(ctx, pdf_dict_get(ctx, font, PDF_NAME(DescendantFonts)), 0);
    pdf_obj *descriptor = pdf_dict_get(ctx, font, PDF_NAME(FontDescriptor));
    return pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile)) != NULL ||
           pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile2)) != NULL ||
           pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile3)) != NULL;
}

/// Counts `name` once (a font named twice is one substitution).
static void add_substituted(CMuPDF_page_audit *audit, const char *name) {
    int kept = audit->substituted_count < CMUPDF_AUDIT_FONTS_MAX ? audit->substituted_count : CMUPDF_AUDIT_FONTS_MAX;
    for (int i = 0; i < kept; i++)
        if (strncmp(audit->substituted[i], name, CMUPDF_AUDIT_FONT_NAME_MAX - 1) == 0) return;
    if (audit->substituted_count < CMUPDF_AUDIT_FONTS_MAX)
        fz_strlcpy(audit->substituted[audit->substituted_count], name, CMUPDF_AUDIT_FONT_NAME_MAX);
    audit->substituted_count++;
}

/// Looks at the fonts of `resources` and of its form XObjects' resources, `depth` levels down;
/// `*budget` resource dictionaries at most in all. Call with doc_lock held, inside fz_try.
static void audit_fonts(fz_context *ctx, pdf_obj *resources, int depth, int *budget, CMuPDF_page_audit *audit) {
    if (!pdf_is_dict(ctx, resources) || depth > AUDIT_FORM_DEPTH || (*budget)-- <= 0) return;
    pdf_obj *fonts = pdf_dict_get(ctx, resources, PDF_NAME(Font));
    int n = pdf_dict_len(ctx, fonts);
    for (int i = 0; i < n; i++) {
        pdf_obj *font = pdf_dict_get_val(ctx, fonts, i);
        if (!pdf_is_dict(ctx, font) || font_is_embedded(ctx, font)) continue;
        pdf_obj *base = pdf_dict_get(ctx, font, PDF_NAME(BaseFont));
        add_substituted(audit, pdf_is_name(ctx, base) ? pdf_to_name(ctx, base) : pdf_to_name(ctx, pdf_dict_get_key(ctx, fonts, i)));
    }
    pdf_obj *objects = pdf_dict_get(ctx, resources, PDF_NAME(XObject));
    n = pdf_dict_len(ctx, objects);
    for (int i = 0; i < n; i++) {
        pdf_obj *object = pdf_dict_get_val(ctx, objects, i);
        if (!pdf_name_eq(ctx, pdf_dict_get(ctx, object, PDF_NAME(Subtype)), PDF_NAME(Form))) continue;
        pdf_obj *own = pdf_dict_get(ctx, object, PDF_NAME(Resources));
        if (own != resources) audit_fonts(ctx, own, depth + 1, budget, audit);
    }
}

int CMuPDF_page_audit_read(CMuPDF_document *document, int index, CMuPDF_page_audit *audit, CMuPDF_error *error) {
    shim_set_error(error, CMUPDF_OK, "");
    memset(audit, 0, sizeof *audit);
    int status = shim_check_index(document, index, error);
    if (status != CMUPDF_OK) return status;
    status = CMuPDF_internal_visit_stext(document, index, FZ_STEXT_MEDIABOX_CLIP, visit_sizes, audit, error);
    if (status != CMUPDF_OK) return status;
    fz_context *ctx = shim_enter(document);
    fz_page *page = NULL;
    fz_var(page);
    fz_try(ctx) {
        if (pdf_specifics(ctx, document->doc)) {
            page = shim_load_page_locked(document, index);
            int budget = AUDIT_RESOURCES_MAX;
            audit_fonts(ctx, pdf_page_resources(ctx, pdf_page_from_fz_page(ctx, page)), 0, &budget, audit);
        }
    }
    fz_always(ctx) fz_drop_page(ctx, page);
    fz_catch(ctx) status = shim_caught(ctx, error);
    return shim_leave(document, status);
}
