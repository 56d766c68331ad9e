/* search_params.c - the table of the search's tunable constants (search_params.h) and access by index. */
#include "search_params.h"

#include <string.h>

const SearchParamInfo SEARCH_PARAM_INFO[SEARCH_PARAM_COUNT] = {
#define XQ_SP_INFO(name, def, lo, hi, step) { #name, def, lo, hi, step, offsetof(SearchParams, name) },
    SEARCH_PARAMS(XQ_SP_INFO)
#undef XQ_SP_INFO
};

/* Fills p with every default. */
void search_params_default(SearchParams *p)
{
#define XQ_SP_SET_DEFAULT(name, def, lo, hi, step) p->name = def;
    SEARCH_PARAMS(XQ_SP_SET_DEFAULT)
#undef XQ_SP_SET_DEFAULT
}

/* The value of parameter index in p. */
int search_param_get(const SearchParams *p, int index)
{
    int v;
    memcpy(&v, (const char *)p + SEARCH_PARAM_INFO[index].offset, sizeof v);
    return v;
}

/* Sets parameter index in p to v; false (p unchanged) when v is outside its range. */
bool search_param_set(SearchParams *p, int index, int v)
{
    const SearchParamInfo *info = &SEARCH_PARAM_INFO[index];
    if (v < info->min || v > info->max)
        return false;
    memcpy((char *)p + info->offset, &v, sizeof v);
    return true;
}

/* The index of the parameter of this name, or -1. */
int search_param_find(const char *name)
{
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++)
        if (strcmp(SEARCH_PARAM_INFO[i].name, name) == 0)
            return i;
    return -1;
}
