// GLib, for GChecksum (MD5 of thumbnail names, SHA-256 of cache directories). GLib is in the process anyway:
// chafa links it.
#include <glib.h>
