/*
 * check_layers.c - the include rule of src/ and tools/, checked over every
 * #include "..." line (ctest include_layers).
 *
 * src/layers.txt gives each folder of src/ a layer number. A file may include
 * a header of its own folder (by its bare name) and headers of folders of a
 * lower layer (as "folder/name.h", from the root src/); two folders of one
 * layer are independent. The files directly in src/ (main, cli) are the top.
 * In tools/, a program's folder may include its own headers, tools/common/
 * ("common/name.h") and anything of src/; common/ may include only src/.
 * Modules (name.c with name.h) must not include each other in a circle,
 * through any chain of headers: the check reports every cycle it finds.
 *
 * usage: check_layers SRC_DIR TOOLS_DIR   (exit 0: clean, 1: a violation, 2: bad usage or input)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    PATH_LEN = 512,
    NAME_LEN = 256,
    FILES_MAX = 1024,
    INCLUDES_MAX = 64,
    FOLDERS_MAX = 64,
    LAYER_TOP = 1000, /* the files directly in src/ */
};

/* One source file: its path below its root, its folder, and what it includes (as resolved paths). */
typedef struct SourceFile {
    char path[PATH_LEN];   /* "src/board/position.c" */
    char folder[PATH_LEN]; /* "src/board" */
    char module[PATH_LEN]; /* "src/board/position" (the .c and .h of one name are one module) */
    int n_inc;
    int inc[INCLUDES_MAX]; /* indices of included files (project headers only) */
} SourceFile;

/* A folder of src/ and its layer. */
typedef struct Layer {
    char folder[PATH_LEN]; /* "src/eval/nnue" */
    int layer;
} Layer;

static SourceFile files[FILES_MAX];
static int n_files;
static Layer layers[FOLDERS_MAX];
static int n_layers;
static int violations;

/* Prints one violation and counts it. */
static void report(const char *fmt, const char *a, const char *b)
{
    printf("include_layers: ");
    printf(fmt, a, b);
    printf("\n");
    violations++;
}

/* Does path end with suffix? */
static bool ends_with(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* Adds every .c and .h file below dir (recursively) to files[]. */
static void scan(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "check_layers: cannot open %s\n", dir);
        exit(2);
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            scan(path);
        } else if (ends_with(path, ".c") || ends_with(path, ".h")) {
            if (n_files == FILES_MAX) {
                fprintf(stderr, "check_layers: more than %d files\n", FILES_MAX);
                exit(2);
            }
            SourceFile *f = &files[n_files++];
            snprintf(f->path, sizeof f->path, "%s", path);
            snprintf(f->folder, sizeof f->folder, "%s", dir);
            snprintf(f->module, sizeof f->module, "%.*s", (int)(strlen(path) - 2), path);
        }
    }
    closedir(d);
}

/* The index of the file at path, or -1. */
static int find_file(const char *path)
{
    for (int i = 0; i < n_files; i++)
        if (strcmp(files[i].path, path) == 0)
            return i;
    return -1;
}

/* The layer of a folder of src/ (LAYER_TOP for src itself), or -1 when layers.txt does not name it. */
static int layer_of(const char *folder, const char *src)
{
    if (strcmp(folder, src) == 0)
        return LAYER_TOP;
    for (int i = 0; i < n_layers; i++)
        if (strcmp(layers[i].folder, folder) == 0)
            return layers[i].layer;
    return -1;
}

/* Reads SRC/layers.txt: lines "folder layer", '#' comments. */
static void read_layers(const char *src)
{
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/layers.txt", src);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "check_layers: cannot open %s\n", path);
        exit(2);
    }
    char line[PATH_LEN];
    while (fgets(line, sizeof line, fp)) {
        char name[PATH_LEN / 2];
        int layer;
        if (line[0] == '#' || sscanf(line, "%255s %d", name, &layer) != 2)
            continue;
        if (n_layers == FOLDERS_MAX)
            break;
        snprintf(layers[n_layers].folder, sizeof layers[n_layers].folder, "%s/%s", src, name);
        layers[n_layers++].layer = layer;
    }
    fclose(fp);
}

/* Is folder the directory root or one below it? */
static bool under(const char *folder, const char *root) { return strncmp(folder, root, strlen(root)) == 0; }

/* Is name the file name of some project file (in any folder)? */
static bool basename_used(const char *name)
{
    for (int i = 0; i < n_files; i++) {
        const char *slash = strrchr(files[i].path, '/');
        if (strcmp(slash ? slash + 1 : files[i].path, name) == 0)
            return true;
    }
    return false;
}

/* Resolves one include of file f by the project's rules; checks the layer rule; returns the file or -1. */
static int resolve(const SourceFile *f, const char *name, const char *src, const char *tools)
{
    char path[2 * PATH_LEN];
    if (!strchr(name, '/')) {
        snprintf(path, sizeof path, "%s/%s", f->folder, name);
        int i = find_file(path);
        if (i < 0 && basename_used(name))
            report("%s: \"%s\" is another folder's header (name it as \"folder/name.h\")", f->path, name);
        return i; /* not found anywhere: a generated or system header */
    }
    snprintf(path, sizeof path, "%s/%s", src, name);
    int i = find_file(path);
    if (i >= 0) {
        if (under(f->folder, src)) {
            int from = layer_of(f->folder, src), to = layer_of(files[i].folder, src);
            if (from < 0)
                report("%s: its folder is not in layers.txt%s", f->path, "");
            else if (to < 0)
                report("%s: the folder of %s is not in layers.txt", f->path, files[i].path);
            else if (to >= from && strcmp(f->folder, files[i].folder) != 0)
                report("%s includes %s: not a lower layer", f->path, files[i].path);
        }
        return i;
    }
    snprintf(path, sizeof path, "%s/%s", tools, name);
    i = find_file(path);
    if (i >= 0 && under(f->folder, src))
        report("%s includes %s: src/ may not include tools/", f->path, files[i].path);
    if (i >= 0 && under(f->folder, tools)) {
        char common[PATH_LEN];
        snprintf(common, sizeof common, "%s/common", tools);
        const char *to = files[i].folder;
        if (strcmp(to, common) != 0 && strcmp(to, f->folder) != 0)
            report("%s includes %s: a program may include only its own folder and common/", f->path,
                   files[i].path);
        if (strcmp(f->folder, common) == 0 && strcmp(to, common) != 0)
            report("%s includes %s: common/ may include only src/", f->path, files[i].path);
    }
    return i;
}

/* Reads the #include "..." lines of every file into its inc[]. */
static void read_includes(const char *src, const char *tools)
{
    for (int k = 0; k < n_files; k++) {
        SourceFile *f = &files[k];
        FILE *fp = fopen(f->path, "r");
        if (!fp)
            continue;
        char line[PATH_LEN];
        while (fgets(line, sizeof line, fp)) {
            const char *s = line;
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s != '#')
                continue;
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            if (strncmp(s, "include", 7) != 0)
                continue;
            const char *q = strchr(s, '"');
            const char *end = q ? strchr(q + 1, '"') : NULL;
            if (!end)
                continue;
            char name[NAME_LEN];
            snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
            int i = resolve(f, name, src, tools);
            if (i >= 0 && f->n_inc < INCLUDES_MAX)
                f->inc[f->n_inc++] = i;
        }
        fclose(fp);
    }
}

static int module_id[FILES_MAX]; /* the index of each file's module (the first file of that name) */
static bool has_c[FILES_MAX];    /* by module: has a .c file (a header-only module declares nothing it defines) */
static int state[FILES_MAX];     /* DFS over modules: 0 new, 1 on the stack, 2 done */
static int stack[FILES_MAX];
static int depth;

static void visit(int m);

/* Follows module m's include of file i: to i's module, or through a header-only file to what it includes. */
static void follow(int m, int i, bool *seen)
{
    if (seen[i])
        return;
    seen[i] = true;
    int to = module_id[i];
    if (!has_c[to]) {
        for (int j = 0; j < files[i].n_inc; j++)
            follow(m, files[i].inc[j], seen);
        return;
    }
    if (to == m)
        return;
    if (state[to] == 1) {
        char chain[4096] = "";
        size_t n = 0;
        int from = depth - 1;
        while (from > 0 && stack[from] != to)
            from--;
        for (int s = from; s < depth && n < sizeof chain - PATH_LEN; s++)
            n += (size_t)snprintf(chain + n, sizeof chain - n, "%s -> ", files[stack[s]].module);
        report("module cycle: %s%s", chain, files[to].module);
    } else if (state[to] == 0) {
        visit(to);
    }
}

/* Depth-first search over the module graph from module m; reports a cycle when it meets the stack.
 * A header without a .c of its own is not a module: an include of it counts as the includes it makes. */
static void visit(int m)
{
    state[m] = 1;
    stack[depth++] = m;
    for (int k = 0; k < n_files; k++) {
        if (module_id[k] != m)
            continue;
        bool seen[FILES_MAX] = { false };
        for (int j = 0; j < files[k].n_inc; j++)
            follow(m, files[k].inc[j], seen);
    }
    depth--;
    state[m] = 2;
}

/* Checks src/ and tools/; prints each violation; exit 1 if any. */
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_layers SRC_DIR TOOLS_DIR\n");
        return 2;
    }
    const char *src = argv[1], *tools = argv[2];
    read_layers(src);
    scan(src);
    scan(tools);
    read_includes(src, tools);
    for (int k = 0; k < n_files; k++) {
        module_id[k] = k;
        for (int j = 0; j < k; j++)
            if (strcmp(files[j].module, files[k].module) == 0) {
                module_id[k] = j;
                break;
            }
    }
    for (int k = 0; k < n_files; k++)
        if (ends_with(files[k].path, ".c"))
            has_c[module_id[k]] = true;
    for (int k = 0; k < n_files; k++)
        if (module_id[k] == k && has_c[k] && state[k] == 0)
            visit(k);
    if (violations) {
        printf("include_layers: %d violation(s) in %d files\n", violations, n_files);
        return 1;
    }
    printf("include_layers: %d files, %d layers, no upward include, no cycle\n", n_files, n_layers);
    return 0;
}
