#include "CXMLShim.h"
#include <libxml/xmlversion.h>
int cxml_shim_version(void) { return LIBXML_VERSION; }
