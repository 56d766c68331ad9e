/* fuzz_init.c - the libFuzzer initialiser every target shares: the engine's tables, once. */
#include "fuzz.h"
#include "board/square.h"

/* Initialises the tables once. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    tables_init();
    return 0;
}
