#pragma once
// The part of FreeType's API shim.c calls, as freetype/freetype.h and fttypes.h (FreeType 2.12)
// declare it. FreeType's headers need `-I/usr/include/freetype2`, which only its pkg-config
// flags give, and a system library's pkg-config flags link the library into every program
// that uses it: lectern would load FreeType and HarfBuzz (and what they load) at every start
// again. CFontLibraries loads them when first called instead. These declarations are FreeType's
// stable ABI; HarfBuzz's own header needs no flags (<harfbuzz/hb.h>).
#include <harfbuzz/hb.h>

typedef unsigned char FT_Byte;
typedef unsigned int FT_UInt;
typedef signed long FT_Long;
typedef unsigned long FT_ULong;
typedef signed long FT_F26Dot6;
typedef int FT_Error;
typedef struct FT_LibraryRec_ *FT_Library;
typedef struct FT_FaceRec_ *FT_Face;

FT_Error FT_Init_FreeType(FT_Library *alibrary);
FT_Error FT_Done_FreeType(FT_Library library);
FT_Error FT_New_Memory_Face(
    FT_Library library, const FT_Byte *file_base, FT_Long file_size, FT_Long face_index, FT_Face *aface);
FT_Error FT_Done_Face(FT_Face face);
FT_Error FT_Set_Char_Size(
    FT_Face face, FT_F26Dot6 char_width, FT_F26Dot6 char_height, FT_UInt horz_resolution, FT_UInt vert_resolution);
FT_UInt FT_Get_Char_Index(FT_Face face, FT_ULong charcode);
const char *FT_Error_String(FT_Error error_code);

// The load flags (FT_LOAD_*) and the render modes FT_LOAD_TARGET_ takes (FT_Render_Mode).
#define FT_LOAD_DEFAULT 0x0
#define FT_LOAD_NO_HINTING (1L << 1)
#define FT_LOAD_NO_BITMAP (1L << 3)
#define FT_LOAD_FORCE_AUTOHINT (1L << 5)
#define FT_LOAD_MONOCHROME (1L << 12)
#define FT_LOAD_TARGET_(x) ((int)((x) & 15) << 16)
#define FT_LOAD_TARGET_NORMAL FT_LOAD_TARGET_(0)
#define FT_LOAD_TARGET_LIGHT FT_LOAD_TARGET_(1)
#define FT_LOAD_TARGET_MONO FT_LOAD_TARGET_(2)
#define FT_LOAD_TARGET_LCD FT_LOAD_TARGET_(3)
#define FT_LOAD_TARGET_LCD_V FT_LOAD_TARGET_(4)

// HarfBuzz's FreeType functions (harfbuzz/hb-ft.h, which includes FreeType's headers).
hb_font_t *hb_ft_font_create_referenced(FT_Face ft_face);
void hb_ft_font_set_load_flags(hb_font_t *font, int load_flags);
