#ifndef CXMLSHIM_H
#define CXMLSHIM_H

/*
 * A narrow surface over libxml2's SAX2 push parser for reading property lists.
 *
 * The reader turns a document into a flat list of start/end events for the elements of
 * Apple's plist DTD, with the text that preceded each event gathered in one byte buffer.
 * Everything lives in memory the reader allocates and frees in cxml_reader_destroy; libxml2
 * sees the caller's bytes only during cxml_reader_feed. Only opaque pointers and plain
 * structs cross into Swift.
 */

#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

typedef struct cxml_reader cxml_reader;

/* The elements of Apple's plist DTD; CXML_ELEMENT_UNKNOWN for anything else. */
enum {
    CXML_ELEMENT_UNKNOWN = 0,
    CXML_ELEMENT_PLIST,
    CXML_ELEMENT_DICT,
    CXML_ELEMENT_KEY,
    CXML_ELEMENT_ARRAY,
    CXML_ELEMENT_STRING,
    CXML_ELEMENT_DATA,
    CXML_ELEMENT_DATE,
    CXML_ELEMENT_INTEGER,
    CXML_ELEMENT_REAL,
    CXML_ELEMENT_TRUE,
    CXML_ELEMENT_FALSE
};

enum {
    CXML_EVENT_START = 1,
    CXML_EVENT_END = 2
};

/* One element boundary. `text_length` bytes of character data (UTF-8, entities and CDATA
   resolved) preceded it; they follow the previous event's text in the text buffer. Whitespace
   before a start tag or before the end of dict, array or plist is dropped (length 0). */
typedef struct {
    uint64_t text_length;
    uint32_t line;      /* 1-based position of the tag's '<' */
    uint32_t column;
    uint8_t kind;       /* CXML_EVENT_* */
    uint8_t element;    /* CXML_ELEMENT_* */
} cxml_event;

enum {
    CXML_STOP_NONE = 0,
    CXML_STOP_XML_ERROR,        /* libxml2 reported an error: see xml_code and message */
    CXML_STOP_ENTITY,           /* a reference to an entity other than the five predefined ones */
    CXML_STOP_UNKNOWN_ELEMENT,  /* an element outside the DTD: its event is the last one */
    CXML_STOP_OUT_OF_MEMORY,
    CXML_STOP_INTERNAL_SUBSET   /* a DOCTYPE with an internal subset ([...]): at its '[' */
};

/* Why the reader stopped. Strings belong to the reader and live until it is destroyed. */
typedef struct {
    int reason;                       /* CXML_STOP_* */
    int xml_code;                     /* libxml2's xmlParserErrors value, for CXML_STOP_XML_ERROR */
    uint32_t line;
    uint32_t column;
    const char *_Nullable message;    /* libxml2's message without the final newline, or the entity name */
    const char *_Nullable str1;       /* libxml2's extra strings (e.g. both tag names of a mismatch) */
    const char *_Nullable str2;
    int int1;                         /* libxml2's extra number (e.g. the line of the open tag) */
} cxml_stop;

/* A new reader, or NULL when memory is short. */
cxml_reader *_Nullable cxml_reader_create(void);

/* Makes the reader ignore the encoding an XML declaration names: for input the caller has already
   converted to UTF-8 (a UTF-32 document with a byte-order mark, whose declaration still says
   UTF-32). Call before the first cxml_reader_feed. */
void cxml_reader_ignore_declared_encoding(cxml_reader *reader);

/* Frees the reader, its parser and its buffers. NULL is allowed. */
void cxml_reader_destroy(cxml_reader *_Nullable reader);

/* Parses the next bytes of the document; `is_last` non-zero ends it. libxml2 does not keep
   `bytes`. Returns 0 while parsing can go on, 1 once the reader has stopped (see cxml_reader_stop). */
int cxml_reader_feed(cxml_reader *reader, const uint8_t *_Nullable bytes, size_t length, int is_last);

/* Events produced since the last cxml_reader_consume, and the text they refer to. */
size_t cxml_reader_event_count(const cxml_reader *reader);
const cxml_event *_Nullable cxml_reader_events(const cxml_reader *reader);
const uint8_t *_Nullable cxml_reader_text(const cxml_reader *reader);

/* Forgets the events (and their text) returned so far, keeping text not yet attached to one. */
void cxml_reader_consume(cxml_reader *reader);

/* The name of the unknown element (CXML_STOP_UNKNOWN_ELEMENT), or NULL. */
const char *_Nullable cxml_reader_unknown_name(const cxml_reader *reader);

/* Why the reader stopped; reason CXML_STOP_NONE while it has not. */
cxml_stop cxml_reader_stop(const cxml_reader *reader);

/* LIBXML_VERSION of the headers the shim was built with. */
int cxml_shim_version(void);

#pragma clang assume_nonnull end

#endif
