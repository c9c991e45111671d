#pragma once
// HarfBuzz shaping FreeType faces (Debian libharfbuzz-dev; its pkg-config flags carry FreeType's).
#include <hb-ft.h>
