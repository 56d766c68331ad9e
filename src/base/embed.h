/* embed.h - a data file built into the executable: the assembler's .incbin between two symbols, for
 * book_embed.c and nnue_embed.c (the one place that knows the read-only section of each object format). */
#ifndef XQ_EMBED_H
#define XQ_EMBED_H

#if defined(_WIN32)
#define XQ_EMBED_RODATA ".section .rdata,\"dr\"\n"
#else
#define XQ_EMBED_RODATA ".section .rodata\n"
#endif

/* Top-level assembly that puts the bytes of FILE (a string literal) in the read-only section aligned to
 * ALIGN bytes, between the global symbols SYM and SYM_end, with one 0 byte after them. */
#define XQ_EMBED_INCBIN(SYM, FILE, ALIGN)                                                                      \
    __asm__(XQ_EMBED_RODATA ".balign " #ALIGN "\n"                                                             \
                            ".globl " #SYM "\n" #SYM ":\n"                                                     \
                            ".incbin \"" FILE "\"\n"                                                           \
                            ".globl " #SYM "_end\n" #SYM "_end:\n"                                             \
                            ".byte 0\n"                                                                        \
                            ".text\n")

#endif
