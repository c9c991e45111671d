// CMuPDF tagged structure for speech: the elements of a page's structure tree that a visitor who
// cannot see the screen needs (shim_structure.c). Included at the end of CMuPDF.h.
#ifndef CMUPDF_STRUCTURE_H
#define CMUPDF_STRUCTURE_H

#ifdef __cplusplus
extern "C" {
#endif

/// The most elements CMuPDF_page_structure returns for one page (the first ones), the artifacts
/// besides.
#define CMUPDF_STRUCTURE_ELEMENTS_MAX 64
/// The most bytes of an element's /Alt or /ActualText kept (cut at a character's boundary).
#define CMUPDF_STRUCTURE_TEXT_MAX 500
/// The most glyphs of a page's /ActualText elements listed (CMuPDF_structure_element.glyphs).
#define CMUPDF_STRUCTURE_GLYPHS_MAX 1024
/// How deep the walk goes below /StructTreeRoot; deeper elements are left out.
#define CMUPDF_STRUCTURE_DEPTH_MAX 64
/// How many elements a walk looks at in all; the rest of the tree is left out.
#define CMUPDF_STRUCTURE_NODES_MAX 100000

enum {
    /// /S is Figure, itself or through /RoleMap.
    CMUPDF_STRUCTURE_FIGURE = 0,
    /// /S is Formula.
    CMUPDF_STRUCTURE_FORMULA = 1,
    /// Another element that has /Alt, /ActualText or its own /Lang.
    CMUPDF_STRUCTURE_OTHER = 2,
    /// Not an element: the page's /Artifact marked content (running heads, page numbers), listed
    /// last, once, for its glyphs.
    CMUPDF_STRUCTURE_ARTIFACT = 3,
};

/// One element of a page's structure tree.
typedef struct CMuPDF_structure_element {
    /// CMUPDF_STRUCTURE_FIGURE, _FORMULA, _OTHER or _ARTIFACT (depth 0).
    int kind;
    /// How deep it is in the tree (1: a kid of /StructTreeRoot).
    int depth;
    /// 1 when `box` holds the element's box: its /A /BBox, else (a figure) the box of what its
    /// marked content (its MCIDs on the page) draws, found by interpreting the page's content.
    int has_box;
    /// x0, y0, x1, y1 in PDF user space (unrotated, y up).
    float box[4];
    /// /Alt and /ActualText in UTF-8 (malloc'd, freed by CMuPDF_structure_free), NULL when absent.
    char *alt;
    char *actual_text;
    /// /Lang, its own or the nearest ancestor's ("" when none).
    char language[16];
    /// For a figure, an element with /ActualText and the artifacts: the boxes (x0, y0, x1, y1
    /// each, PDF user space) of the glyphs its marked content draws on the page (visible or not;
    /// spaces draw none), so the text it replaces, or that is not read, can be found; malloc'd,
    /// NULL when none. At most CMUPDF_STRUCTURE_GLYPHS_MAX for a page.
    float *glyphs;
    int glyph_count;
} CMuPDF_structure_element;

/// The elements of the structure tree (/StructTreeRoot) on page `index` that speech needs: figures
/// and formulas, and the elements with /Alt, /ActualText or their own /Lang. They are found through
/// the tree's /ParentTree when it indexes the page (its /StructParents): the element of each MCID
/// with its ancestors (/P), in the order of the MCIDs, each after its ancestors; else by walking
/// the whole tree, in its order (depth first, /K in order), where an element is on the page when
/// it has marked content there (an MCID or an /MCR or /OBJR whose /Pg, or the element's own or
/// inherited /Pg, is the page), or when it has no content of its own and its /Pg is the page.
/// Both are bounded (CMUPDF_STRUCTURE_*_MAX, each element looked at once: cycles end), and keys
/// of the wrong type are ignored. A document without a structure tree, or not a PDF, has none.
/// On success `*elements` is a malloc'd array of `*count` elements (NULL for none) freed with
/// CMuPDF_structure_free.
int CMuPDF_page_structure(CMuPDF_document *document, int index, CMuPDF_structure_element **elements, int *count,
                          CMuPDF_error *error);

/// Frees what CMuPDF_page_structure returned.
void CMuPDF_structure_free(CMuPDF_structure_element *elements, int count);

#ifdef __cplusplus
}
#endif

#endif
