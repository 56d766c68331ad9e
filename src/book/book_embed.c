/* book_embed.c - the default opening book, built into the executable with the assembler's .incbin (or,
 * where the assembler cannot, as a C array of the bytes CMake generates: XQ_EMBED_BOOK_INC, the wasm build). */
#include "book.h"

#include "base/embed.h"

#if defined(XQ_EMBED_BOOK_INC)
/* The bytes of the file, then a 0 as the .incbin form has (not counted in the size). */
static _Alignas(16) const uint8_t xq_embedded_book[] = {
#include XQ_EMBED_BOOK_INC
    0
};

/* First byte of the built-in book. */
const uint8_t *book_embedded_data(void) { return xq_embedded_book; }
/* Size of the built-in book. */
size_t book_embedded_size(void) { return sizeof xq_embedded_book - 1; }
#elif defined(XQ_EMBED_BOOK)
/* The bytes of the file named by XQ_EMBED_BOOK, between two symbols. */
XQ_EMBED_INCBIN(xq_embedded_book, XQ_EMBED_BOOK, 16);
extern const uint8_t xq_embedded_book[], xq_embedded_book_end[];

/* First byte of the built-in book. */
const uint8_t *book_embedded_data(void) { return xq_embedded_book; }
/* Size of the built-in book. */
size_t book_embedded_size(void) { return (size_t)(xq_embedded_book_end - xq_embedded_book); }
#else
/* No book is built into this build. */
const uint8_t *book_embedded_data(void) { return NULL; }
/* No book is built into this build: size 0. */
size_t book_embedded_size(void) { return 0; }
#endif
