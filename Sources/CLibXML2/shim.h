#ifndef SHIPYARD_CLIBXML2_SHIM_H
#define SHIPYARD_CLIBXML2_SHIM_H
/*
 * Debian's libxml2 is built with ICU, so <libxml/encoding.h> includes ICU's headers.
 * Foundation on Linux ships its own ICU (_FoundationICU) and a module that sees both
 * fails on a clean build with "'UErrorCode' has different definitions". Shipyard never
 * uses libxml2's ICU converters, so read the feature macros first and switch ICU off
 * before any other libxml2 header is seen (xmlversion.h is include-guarded).
 */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#endif
