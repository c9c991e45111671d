#pragma once
#include <wayland-server.h>
#include "../../protocols/server/xdg-shell-server-protocol.h"
#include "../../protocols/server/viewporter-server-protocol.h"
#include "../../protocols/server/presentation-time-server-protocol.h"
#include "../../protocols/server/fractional-scale-v1-server-protocol.h"
#include "../../protocols/server/single-pixel-buffer-v1-server-protocol.h"
