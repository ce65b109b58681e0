#ifndef CXMLSHIM_H
#define CXMLSHIM_H
/* Placeholder: the XML work defines the narrow surface over libxml2 here. */
int cxml_shim_version(void);
#endif
