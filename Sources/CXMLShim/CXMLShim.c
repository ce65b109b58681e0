#include "CXMLShim.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct cxml_reader {
    xmlParserCtxtPtr ctxt;      /* created on the first feed, with the first bytes for encoding detection */
    int stopped;

    cxml_event *events;
    size_t event_count;
    size_t event_capacity;

    uint8_t *text;
    size_t text_length;         /* bytes in use */
    size_t text_capacity;
    size_t pending_start;       /* text from here on is not yet attached to an event */

    cxml_stop stop;
    char *stop_message;         /* the strings of `stop`, owned here */
    char *stop_str1;
    char *stop_str2;
    char *unknown_name;

    /* Lines of the open elements (libxml2 allows 256 levels), to say where a truncated
       document's open element began. */
    uint32_t open_lines[300];
    int depth;
    int seen_root;
    int ignore_declared_encoding;  /* the caller converted the input to UTF-8 */
};

int cxml_shim_version(void) { return LIBXML_VERSION; }

/* xmlInitParser is not safe to race on its first call. */
static pthread_once_t cxml_init_once = PTHREAD_ONCE_INIT;
static void cxml_init(void) { xmlInitParser(); }

static char *cxml_strdup(const char *s) {
    if (s == NULL) return NULL;
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (copy != NULL) memcpy(copy, s, n + 1);
    return copy;
}

static void cxml_halt(cxml_reader *r) {
    r->stopped = 1;
    if (r->ctxt != NULL) xmlStopParser(r->ctxt);
}

static void cxml_set_stop(cxml_reader *r, int reason, int xml_code, int line, int column,
                          const char *message, const char *str1, const char *str2, int int1) {
    if (r->stop.reason != CXML_STOP_NONE) return; /* the first reason wins */
    r->stop.reason = reason;
    r->stop.xml_code = xml_code;
    r->stop.line = line > 0 ? (uint32_t)line : 0;
    r->stop.column = column > 0 ? (uint32_t)column : 0;
    r->stop.int1 = int1;
    r->stop_message = cxml_strdup(message);
    if (r->stop_message != NULL) {
        size_t n = strlen(r->stop_message);
        while (n > 0 && (r->stop_message[n - 1] == '\n' || r->stop_message[n - 1] == ' ')) r->stop_message[--n] = 0;
    }
    r->stop_str1 = cxml_strdup(str1);
    r->stop_str2 = cxml_strdup(str2);
    r->stop.message = r->stop_message;
    r->stop.str1 = r->stop_str1;
    r->stop.str2 = r->stop_str2;
    cxml_halt(r);
}

static void cxml_out_of_memory(cxml_reader *r) {
    cxml_set_stop(r, CXML_STOP_OUT_OF_MEMORY, 0, 0, 0, NULL, NULL, NULL, 0);
}

static void cxml_current_position(cxml_reader *r, int *line, int *column) {
    *line = 0;
    *column = 0;
    if (r->ctxt != NULL && r->ctxt->input != NULL) {
        *line = r->ctxt->input->line;
        *column = r->ctxt->input->col;
    }
}

/* The position of the `mark` ('<' of the tag just parsed, '&' of the reference just read).
   libxml2 calls us with its cursor at or just after the construct's end, and neither a tag nor
   a reference contains another `mark`, so walk back to it. When the construct spans lines or
   the buffer no longer holds its start, fall back to the cursor. */
static void cxml_mark_position(cxml_reader *r, xmlChar mark, uint32_t *line, uint32_t *column) {
    int l, c;
    cxml_current_position(r, &l, &c);
    *line = l > 0 ? (uint32_t)l : 0;
    *column = c > 0 ? (uint32_t)c : 0;
    xmlParserInputPtr input = r->ctxt != NULL ? r->ctxt->input : NULL;
    if (input == NULL || input->cur == NULL || input->base == NULL) return;
    const xmlChar *p = input->cur;
    int back = 0;
    while (p > input->base) {
        p--;
        if (*p == '\n') return;
        if ((*p & 0xC0) != 0x80) back++; /* count characters, not UTF-8 continuation bytes */
        if (*p == mark) {
            if (c - back >= 1) *column = (uint32_t)(c - back);
            return;
        }
    }
}

static void cxml_tag_position(cxml_reader *r, uint32_t *line, uint32_t *column) {
    cxml_mark_position(r, '<', line, column);
}

static int cxml_is_space(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }

static void cxml_push_event(cxml_reader *r, uint8_t kind, uint8_t element, int drop_blank_text) {
    if (r->event_count == r->event_capacity) {
        size_t capacity = r->event_capacity ? r->event_capacity * 2 : 256;
        cxml_event *grown = realloc(r->events, capacity * sizeof(cxml_event));
        if (grown == NULL) { cxml_out_of_memory(r); return; }
        r->events = grown;
        r->event_capacity = capacity;
    }
    size_t length = r->text_length - r->pending_start;
    if (drop_blank_text && length > 0) {
        const uint8_t *t = r->text + r->pending_start;
        size_t i = 0;
        while (i < length && cxml_is_space(t[i])) i++;
        if (i == length) {
            r->text_length = r->pending_start;
            length = 0;
        }
    }
    cxml_event *e = &r->events[r->event_count++];
    e->text_length = length;
    e->kind = kind;
    e->element = element;
    cxml_tag_position(r, &e->line, &e->column);
    r->pending_start = r->text_length;
    if (kind == CXML_EVENT_START) {
        r->seen_root = 1;
        if (r->depth >= 0 && r->depth < (int)(sizeof r->open_lines / sizeof r->open_lines[0])) r->open_lines[r->depth] = e->line;
        r->depth++;
    } else if (r->depth > 0) {
        r->depth--;
    }
}

static uint8_t cxml_element_id(const xmlChar *name, const xmlChar *prefix) {
    if (prefix != NULL) return CXML_ELEMENT_UNKNOWN;
    const char *n = (const char *)name;
    switch (n[0]) {
    case 'a': if (strcmp(n, "array") == 0) return CXML_ELEMENT_ARRAY; break;
    case 'd':
        if (strcmp(n, "dict") == 0) return CXML_ELEMENT_DICT;
        if (strcmp(n, "data") == 0) return CXML_ELEMENT_DATA;
        if (strcmp(n, "date") == 0) return CXML_ELEMENT_DATE;
        break;
    case 'f': if (strcmp(n, "false") == 0) return CXML_ELEMENT_FALSE; break;
    case 'i': if (strcmp(n, "integer") == 0) return CXML_ELEMENT_INTEGER; break;
    case 'k': if (strcmp(n, "key") == 0) return CXML_ELEMENT_KEY; break;
    case 'p': if (strcmp(n, "plist") == 0) return CXML_ELEMENT_PLIST; break;
    case 'r': if (strcmp(n, "real") == 0) return CXML_ELEMENT_REAL; break;
    case 's': if (strcmp(n, "string") == 0) return CXML_ELEMENT_STRING; break;
    case 't': if (strcmp(n, "true") == 0) return CXML_ELEMENT_TRUE; break;
    }
    return CXML_ELEMENT_UNKNOWN;
}

static int cxml_is_container(uint8_t element) {
    return element == CXML_ELEMENT_DICT || element == CXML_ELEMENT_ARRAY || element == CXML_ELEMENT_PLIST;
}

static void cxml_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                               const xmlChar *URI, int nb_namespaces, const xmlChar **namespaces,
                               int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)URI; (void)nb_namespaces; (void)namespaces; (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    cxml_reader *r = ctx;
    if (r->stopped) return;
    uint8_t element = cxml_element_id(localname, prefix);
    cxml_push_event(r, CXML_EVENT_START, element, 1);
    if (element == CXML_ELEMENT_UNKNOWN && !r->stopped) {
        size_t local = strlen((const char *)localname);
        size_t pre = prefix != NULL ? strlen((const char *)prefix) + 1 : 0;
        r->unknown_name = malloc(pre + local + 1);
        if (r->unknown_name == NULL) { cxml_out_of_memory(r); return; }
        if (prefix != NULL) {
            memcpy(r->unknown_name, prefix, pre - 1);
            r->unknown_name[pre - 1] = ':';
        }
        memcpy(r->unknown_name + pre, localname, local + 1);
        cxml_set_stop(r, CXML_STOP_UNKNOWN_ELEMENT, 0, 0, 0, NULL, NULL, NULL, 0);
    }
}

static void cxml_end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI) {
    (void)URI;
    cxml_reader *r = ctx;
    if (r->stopped) return;
    uint8_t element = cxml_element_id(localname, prefix);
    cxml_push_event(r, CXML_EVENT_END, element, cxml_is_container(element));
}

static void cxml_characters(void *ctx, const xmlChar *bytes, int length) {
    cxml_reader *r = ctx;
    if (r->stopped || length <= 0) return;
    size_t needed = r->text_length + (size_t)length;
    if (needed > r->text_capacity) {
        size_t capacity = r->text_capacity ? r->text_capacity : 4096;
        while (capacity < needed) capacity *= 2;
        uint8_t *grown = realloc(r->text, capacity);
        if (grown == NULL) { cxml_out_of_memory(r); return; }
        r->text = grown;
        r->text_capacity = capacity;
    }
    memcpy(r->text + r->text_length, bytes, (size_t)length);
    r->text_length = needed;
}

/* Apple's parser knows only the five predefined entities and character references (which
   libxml2 resolves before we see them). Any other reference is refused, never expanded. */
static void cxml_reference(void *ctx, const xmlChar *name) {
    cxml_reader *r = ctx;
    uint32_t line, column;
    cxml_mark_position(r, '&', &line, &column);
    cxml_set_stop(r, CXML_STOP_ENTITY, 0, (int)line, (int)column, (const char *)name, NULL, NULL, 0);
}

/* Declared entities are never stored, so nothing can expand them (billion laughs) or load
   them (external entities naming local files). */
static xmlEntityPtr cxml_get_entity(void *ctx, const xmlChar *name) {
    (void)ctx; (void)name;
    return NULL;
}

/* Apple's readers refuse a DOCTYPE with an internal subset, `<!DOCTYPE plist [ ... ]>`, and no
   Apple writer makes one. libxml2 calls this handler when it has read the DOCTYPE's name and
   identifiers, with its cursor on the '[' of an internal subset if there is one: stopping here
   means no declaration inside is ever parsed (entities included). */
static void cxml_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name; (void)external_id; (void)system_id;
    cxml_reader *r = ctx;
    xmlParserInputPtr input = r->ctxt != NULL ? r->ctxt->input : NULL;
    if (r->stopped || input == NULL || input->cur == NULL || *input->cur != '[') return;
    cxml_set_stop(r, CXML_STOP_INTERNAL_SUBSET, 0, input->line, input->col, NULL, NULL, NULL, 0);
}

static void cxml_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                             const xmlChar *systemId, xmlChar *content) {
    (void)ctx; (void)name; (void)type; (void)publicId; (void)systemId; (void)content;
}

static xmlParserInputPtr cxml_resolve_entity(void *ctx, const xmlChar *publicId, const xmlChar *systemId) {
    (void)ctx; (void)publicId; (void)systemId;
    return NULL;
}

/* libxml2 2.12 made the error argument const. */
#if LIBXML_VERSION >= 21200
static void cxml_structured_error(void *ctx, const xmlError *error) {
#else
static void cxml_structured_error(void *ctx, xmlErrorPtr error) {
#endif
    cxml_reader *r = ctx;
    if (error == NULL || error->level < XML_ERR_ERROR) return; /* warnings: undeclared entities come to cxml_reference */
    if ((error->code == XML_ERR_DOCUMENT_END || error->code == XML_ERR_DOCUMENT_EMPTY) && r->ctxt != NULL) {
        /* The push parser says "Extra content at the end of the document" also when the input
           simply stops early, and "Document is empty" when text stands where the top element
           should; say what is really wrong. */
        if (!r->seen_root) {
            /* Nothing but blanks left: the document is empty; else text where the top element should be. */
            int text = 0;
            xmlParserInputPtr input = r->ctxt->input;
            if (input != NULL && input->cur != NULL && input->end != NULL) {
                for (const xmlChar *p = input->cur; p < input->end; p++) {
                    if (!cxml_is_space(*p)) { text = 1; break; }
                }
            }
            cxml_set_stop(r, CXML_STOP_XML_ERROR, XML_ERR_DOCUMENT_EMPTY, error->line, error->int2,
                          text ? "Start tag expected, '<' not found" : "Document is empty", NULL, NULL, 0);
            return;
        }
        if (r->depth > 0 && r->ctxt->name != NULL) {
            int index = r->depth - 1;
            int max = (int)(sizeof r->open_lines / sizeof r->open_lines[0]);
            int line = index < max ? (int)r->open_lines[index] : 0;
            cxml_set_stop(r, CXML_STOP_XML_ERROR, XML_ERR_TAG_NOT_FINISHED, error->line, error->int2,
                          "premature end of data", (const char *)r->ctxt->name, NULL, line);
            return;
        }
    }
    int line = error->line, column = error->int2;
    if (r->ctxt != NULL && r->ctxt->input != NULL && line == r->ctxt->input->line && column == r->ctxt->input->col) {
        /* Point at the start of the end tag or reference the error is about, not just past it. */
        uint32_t l = 0, c = 0;
        if (error->code == XML_ERR_TAG_NAME_MISMATCH) cxml_mark_position(r, '<', &l, &c);
        if (error->code == XML_ERR_UNDECLARED_ENTITY || error->code == XML_WAR_UNDECLARED_ENTITY) cxml_mark_position(r, '&', &l, &c);
        if (l > 0) { line = (int)l; column = (int)c; }
    }
    cxml_set_stop(r, CXML_STOP_XML_ERROR, error->code, line, column,
                  error->message, error->str1, error->str2, error->int1);
}

cxml_reader *cxml_reader_create(void) {
    pthread_once(&cxml_init_once, cxml_init);
    cxml_reader *r = calloc(1, sizeof(cxml_reader));
    return r;
}

void cxml_reader_ignore_declared_encoding(cxml_reader *reader) { reader->ignore_declared_encoding = 1; }

void cxml_reader_destroy(cxml_reader *reader) {
    if (reader == NULL) return;
    if (reader->ctxt != NULL) {
        if (reader->ctxt->myDoc != NULL) xmlFreeDoc(reader->ctxt->myDoc);
        xmlFreeParserCtxt(reader->ctxt);
    }
    free(reader->events);
    free(reader->text);
    free(reader->stop_message);
    free(reader->stop_str1);
    free(reader->stop_str2);
    free(reader->unknown_name);
    free(reader);
}

static int cxml_start(cxml_reader *r, const uint8_t *bytes, int length) {
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = cxml_start_element;
    sax.endElementNs = cxml_end_element;
    sax.characters = cxml_characters;
    sax.ignorableWhitespace = cxml_characters;
    sax.cdataBlock = cxml_characters;
    sax.reference = cxml_reference;
    sax.internalSubset = cxml_internal_subset;
    sax.getEntity = cxml_get_entity;
    sax.getParameterEntity = cxml_get_entity;
    sax.entityDecl = cxml_entity_decl;
    sax.resolveEntity = cxml_resolve_entity;
    sax.serror = cxml_structured_error;
    /* libxml2 copies the handler. */
    r->ctxt = xmlCreatePushParserCtxt(&sax, r, (const char *)bytes, length, NULL);
    if (r->ctxt == NULL) { cxml_out_of_memory(r); return 1; }
    /* No network, no entity substitution (no XML_PARSE_NOENT), no external DTD (no XML_PARSE_DTDLOAD). */
    xmlCtxtUseOptions(r->ctxt, XML_PARSE_NONET | (r->ignore_declared_encoding ? XML_PARSE_IGNORE_ENC : 0));
    return 0;
}

/* libxml2 reports some faults (encoding conversion, I/O) without a parser context, through its
   per-thread generic handler, which prints to stderr: bytes from a hostile file must not write to
   the host's terminal (FuzzXMLPlist saw "encoding error : input conversion failed ..." lines).
   What stops the parse still reaches cxml_structured_error or ctxt->wellFormed. */
static void cxml_silent(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }

static int cxml_reader_feed_silently(cxml_reader *r, const uint8_t *bytes, size_t length, int is_last);

int cxml_reader_feed(cxml_reader *reader, const uint8_t *bytes, size_t length, int is_last) {
    /* Silenced only while parsing, and restored, so other libxml2 users in the process keep theirs. */
    xmlGenericErrorFunc saved = xmlGenericError;
    void *saved_context = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, cxml_silent);
    int result = cxml_reader_feed_silently(reader, bytes, length, is_last);
    xmlSetGenericErrorFunc(saved_context, saved);
    return result;
}

static int cxml_reader_feed_silently(cxml_reader *r, const uint8_t *bytes, size_t length, int is_last) {
    if (r->stopped) return 1;
    size_t offset = 0;
    if (r->ctxt == NULL) {
        /* The first four bytes let libxml2 detect the encoding. */
        int first = length < 4 ? (int)length : 4;
        if (cxml_start(r, bytes, first)) return 1;
        offset = (size_t)first;
    }
    /* xmlParseChunk takes an int length. */
    const size_t step = 1 << 20;
    while (offset < length || (is_last && offset == length)) {
        size_t n = length - offset;
        if (n > step) n = step;
        int last = is_last && offset + n == length;
        xmlParseChunk(r->ctxt, bytes != NULL ? (const char *)bytes + offset : NULL, (int)n, last);
        offset += n;
        if (r->stopped) return 1;
        if (last) break;
    }
    if (is_last && r->stop.reason == CXML_STOP_NONE && !r->ctxt->wellFormed) {
        int line, column;
        cxml_current_position(r, &line, &column);
        cxml_set_stop(r, CXML_STOP_XML_ERROR, r->ctxt->errNo, line, column, "the document is not well formed", NULL, NULL, 0);
        return 1;
    }
    return r->stopped;
}

size_t cxml_reader_event_count(const cxml_reader *reader) { return reader->event_count; }
const cxml_event *cxml_reader_events(const cxml_reader *reader) { return reader->events; }
const uint8_t *cxml_reader_text(const cxml_reader *reader) { return reader->text; }
const char *cxml_reader_unknown_name(const cxml_reader *reader) { return reader->unknown_name; }
cxml_stop cxml_reader_stop(const cxml_reader *reader) { return reader->stop; }

void cxml_reader_consume(cxml_reader *reader) {
    cxml_reader *r = reader;
    size_t pending = r->text_length - r->pending_start;
    if (pending > 0 && r->pending_start > 0) memmove(r->text, r->text + r->pending_start, pending);
    r->text_length = pending;
    r->pending_start = 0;
    r->event_count = 0;
}
