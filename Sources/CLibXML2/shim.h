#ifndef FIELDWORK_CLIBXML2_SHIM_H
#define FIELDWORK_CLIBXML2_SHIM_H

// Debian's libxml2 headers pull in ICU through encoding.h, which clashes with Foundation's
// private ICU (UErrorCode) on clean builds. Turn that path off before anything else.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlmemory.h>

// In the threaded build xmlFree is a per-thread macro Swift cannot import.
static inline void fieldwork_xmlFree(void *p) { xmlFree(p); }

static inline const char *fieldwork_libxml_version(void) { return LIBXML_DOTTED_VERSION; }

#endif
