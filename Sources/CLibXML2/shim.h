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
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// In the threaded build xmlFree is a per-thread macro Swift cannot import.
static inline void fieldwork_xmlFree(void *p) { xmlFree(p); }

static inline const char *fieldwork_libxml_version(void) { return LIBXML_DOTTED_VERSION; }

// XPath (FormXML/XPath). libxml2 reports an unknown function or an unbound prefix at evaluation
// through the per-thread generic error handler (stderr by default) as well as through the
// context's structured handler, or not at all; the generic handler is a macro Swift cannot reach.
// These wrappers silence it around one compile or evaluation on the calling thread, and restore
// it after, so nothing else on that thread is affected.

static inline void fieldwork_xpath_ignore(void *ctx, const char *msg, ...) {
    (void)ctx;
    (void)msg;
}

/// xmlXPathCtxtCompile with the generic error handler silenced.
static inline xmlXPathCompExprPtr fieldwork_xpath_compile(xmlXPathContextPtr ctx, const xmlChar *expr) {
    xmlGenericErrorFunc savedFunc = xmlGenericError;
    void *savedContext = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, fieldwork_xpath_ignore);
    xmlXPathCompExprPtr comp = xmlXPathCtxtCompile(ctx, expr);
    xmlSetGenericErrorFunc(savedContext, savedFunc);
    return comp;
}

/// xmlXPathCompiledEval with the generic error handler silenced and a fresh operation budget:
/// the run stops with XPATH_OP_LIMIT_EXCEEDED (1225) after `opLimit` operations (0 = none).
static inline xmlXPathObjectPtr fieldwork_xpath_eval(
    xmlXPathCompExprPtr comp, xmlXPathContextPtr ctx, unsigned long opLimit) {
    xmlGenericErrorFunc savedFunc = xmlGenericError;
    void *savedContext = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, fieldwork_xpath_ignore);
    ctx->opLimit = opLimit;
    ctx->opCount = 0;
    xmlXPathObjectPtr result = xmlXPathCompiledEval(comp, ctx);
    xmlSetGenericErrorFunc(savedContext, savedFunc);
    return result;
}

#endif
