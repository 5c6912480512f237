/* path.c — file-name helpers. */
#include "path.h"
#include "../base/diag.h"

#include <string.h>

const char *path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *path_beside(const char *file, const char *rel)
{
    size_t dir = rel[0] == '/' ? 0 : (size_t)(path_base(file) - file);
    size_t n = strlen(rel);
    char *out = xmalloc(dir + n + 1);
    memcpy(out, file, dir);
    memcpy(out + dir, rel, n + 1);
    return out;
}
