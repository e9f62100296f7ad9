/*
 * traits.c — which __global__ kernels of a file can reach a barrier or a
 * warp-level function.
 *
 * Function definitions are found at file scope (and inside namespace and
 * extern "C" blocks): a declaration holding __global__ or __device__ followed
 * by a { } body. Each defined name is a node of a call graph, and so is each
 * barrier or warp builtin (sync by definition); an identifier in a body that
 * names a node is an edge. Sync-ness then spreads from the builtins to their
 * callers by a breadth-first walk, so cycles end and the cost stays linear.
 * The graph works on names: overloads share one node, which can only err
 * towards "sync" (the safe side: such kernels run as fibers).
 */
#include "tokens.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static const char *const sync_builtins[] = {
    "__syncthreads",
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
    "__syncwarp",
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__match_any_sync",
    "__match_all_sync",
    "__activemask",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot",
    "__any",
    "__all",
    /* Cooperative groups: every group comes from one of these factories or
     * is passed by one of these types, and the members that synchronize
     * are named too (for templates over the group type). */
    "this_thread_block",
    "this_grid",
    "tiled_partition",
    "coalesced_threads",
    "labeled_partition",
    "binary_partition",
    "thread_group",
    "thread_block",
    "thread_block_tile",
    "coalesced_group",
    "grid_group",
    "sync",
    "shfl",
    "shfl_up",
    "shfl_down",
    "shfl_xor",
    "ballot",
    "match_any",
    "match_all",
    "memcpy_async",
};
#define NBUILTINS (sizeof(sync_builtins) / sizeof(sync_builtins[0]))

/* Identifiers that take a parenthesized argument before a function's name. */
static const char *const attributes[] = {
    "__launch_bounds__", "__attribute__", "__declspec",  "alignas",
    "__align__",         "decltype",      "__maxnreg__", "__cluster_dims__",
};

typedef struct fndef {
    size_t name, body, end; /* tokens: the name, the { and the } */
    uint32_t node;
    int global, tmpl;
    char *qname; /* qualified name, for kernels only */
} fndef;

typedef struct analysis {
    const char *src;
    const gpulab_rw_token *t;
    size_t n;
    fndef *defs;
    size_t ndefs, capdefs;
    gpulab_rw_buf scope; /* "ns::inner::" of the namespaces open at this point */
    size_t *marks;       /* scope.len before each open namespace or extern block */
    size_t nmarks, capmarks;
    const char **names; /* node names, names[i] of length lens[i] */
    size_t *lens;
    uint32_t nnodes, *slots, mask; /* hash table of node index + 1 */
    unsigned char *sync;
    int oom;
} analysis;

static int grow(analysis *a, void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(*v, c * size);
    if (!p) {
        a->oom = 1;
        return -1;
    }
    *v = p;
    *cap = c;
    return 0;
}

static int tok_is(const analysis *a, size_t i, const char *word)
{
    return a->t[i].kind == RW_IDENT && strlen(word) == a->t[i].len &&
           memcmp(a->src + a->t[i].start, word, a->t[i].len) == 0;
}

static int is_attribute(const analysis *a, size_t i)
{
    for (size_t k = 0; k < sizeof(attributes) / sizeof(attributes[0]); k++)
        if (tok_is(a, i, attributes[k]))
            return 1;
    return 0;
}

/* Index of the } matching the { at i (n when unmatched); directive lines are ignored. */
static size_t matching_brace(const analysis *a, size_t i)
{
    long depth = 0;
    for (; i < a->n; i++) {
        if (a->t[i].flags & RW_IN_DIRECTIVE)
            continue;
        depth += a->t[i].kind == RW_LBRACE;
        depth -= a->t[i].kind == RW_RBRACE;
        if (depth == 0)
            return i;
    }
    return a->n;
}

/* After `template` at i: the index of the > closing its parameter list (or i). */
static size_t skip_template_params(const analysis *a, size_t i, size_t end)
{
    if (i + 1 >= end || a->t[i + 1].kind != RW_LT)
        return i;
    long angle = 0, paren = 0;
    for (size_t j = i + 1; j < end; j++) {
        int k = a->t[j].kind;
        paren += (k == RW_LPAREN) - (k == RW_RPAREN);
        if (paren == 0)
            angle += (k == RW_LT) - (k == RW_GT) - 2 * (k == RW_SHR);
        if (angle <= 0)
            return j;
    }
    return end;
}

/* Next token at or after i that is not on a directive line, or end. */
static size_t next_code(const analysis *a, size_t i, size_t end)
{
    while (i < end && (a->t[i].flags & RW_IN_DIRECTIVE))
        i++;
    return i;
}

/* For the { at lb that ends the declaration starting at d: when it opens a
 * namespace or an extern "C" block, records the scope and returns 1. */
static int scope_push(analysis *a, size_t d, size_t lb)
{
    size_t i = next_code(a, d, lb), len = a->scope.len;
    if (i < lb && tok_is(a, i, "extern")) {
        i = next_code(a, i + 1, lb);
        if (i >= lb || a->t[i].kind != RW_STRING || next_code(a, i + 1, lb) != lb)
            return 0;
    } else {
        if (i < lb && tok_is(a, i, "inline"))
            i = next_code(a, i + 1, lb);
        if (i >= lb || !tok_is(a, i, "namespace"))
            return 0;
        for (i = next_code(a, i + 1, lb); i < lb; i = next_code(a, i + 1, lb)) {
            if (a->t[i].kind != RW_IDENT && a->t[i].kind != RW_SCOPE)
                return 0;
            gpulab_rw_put(&a->scope, a->src + a->t[i].start, a->t[i].len);
        }
        if (a->scope.len > len)
            gpulab_rw_puts(&a->scope, "::");
    }
    if (grow(a, (void **)&a->marks, &a->capmarks, a->nmarks, sizeof(*a->marks)) == 0)
        a->marks[a->nmarks++] = len;
    return 1;
}

static void scope_pop(analysis *a)
{
    if (a->nmarks > 0)
        a->scope.len = a->marks[--a->nmarks];
}

static void add_kernel_name(analysis *a, fndef *f)
{
    size_t len = a->scope.len, nlen = a->t[f->name].len;
    f->qname = malloc(len + nlen + 1);
    if (!f->qname) {
        a->oom = 1;
        return;
    }
    if (len)
        memcpy(f->qname, a->scope.p, len);
    memcpy(f->qname + len, a->src + a->t[f->name].start, nlen);
    f->qname[len + nlen] = '\0';
}

/* Records the declaration [d, lb) with body lb..rb when it defines a
 * __global__ or __device__ function. */
static void add_def(analysis *a, size_t d, size_t lb, size_t rb)
{
    fndef f = { .name = NONE, .body = lb, .end = rb };
    int device = 0;
    long paren = 0;
    for (size_t i = next_code(a, d, lb); i < lb; i = next_code(a, i + 1, lb)) {
        int k = a->t[i].kind;
        if (tok_is(a, i, "__global__") || tok_is(a, i, "__device__")) {
            f.global |= tok_is(a, i, "__global__");
            device = 1;
        } else if (tok_is(a, i, "template")) {
            f.tmpl = 1;
            i = skip_template_params(a, i, lb);
        } else if (k == RW_IDENT && paren == 0 && f.name == NONE && i + 1 < lb &&
                   a->t[i + 1].kind == RW_LPAREN && !is_attribute(a, i)) {
            f.name = i;
        }
        paren += (k == RW_LPAREN) - (k == RW_RPAREN);
        if (k == RW_ASSIGN && paren == 0)
            return; /* a variable with an initializer */
    }
    if (!device || f.name == NONE ||
        grow(a, (void **)&a->defs, &a->capdefs, a->ndefs, sizeof(*a->defs)) != 0)
        return;
    if (f.global)
        add_kernel_name(a, &f);
    a->defs[a->ndefs++] = f;
}

/* Walks the file scope, entering namespace and extern blocks, skipping bodies. */
static void collect_defs(analysis *a)
{
    size_t decl = 0;
    long paren = 0;
    for (size_t i = 0; i < a->n && !a->oom; i++) {
        int k = a->t[i].kind;
        if (a->t[i].flags & RW_IN_DIRECTIVE)
            continue;
        paren += (k == RW_LPAREN || k == RW_LBRACKET) - (k == RW_RPAREN || k == RW_RBRACKET);
        paren = paren < 0 ? 0 : paren;
        if (paren == 0 && (k == RW_SEMI || k == RW_RBRACE)) {
            if (k == RW_RBRACE)
                scope_pop(a);
            decl = i + 1;
        } else if (k == RW_LBRACE && paren == 0 && scope_push(a, decl, i)) {
            decl = i + 1;
        } else if (k == RW_LBRACE) {
            size_t end = matching_brace(a, i);
            if (paren == 0) {
                add_def(a, decl, i, end);
                decl = end + 1;
            }
            i = end;
        }
    }
}

static uint32_t hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The node named s[0, len): its index, or a new one when @p insert; NONE otherwise. */
static size_t node(analysis *a, const char *s, size_t len, int insert)
{
    uint32_t i = hash(s, len) & a->mask;
    for (; a->slots[i]; i = (i + 1) & a->mask) {
        uint32_t v = a->slots[i] - 1;
        if (a->lens[v] == len && memcmp(a->names[v], s, len) == 0)
            return v;
    }
    if (!insert)
        return NONE;
    a->names[a->nnodes] = s;
    a->lens[a->nnodes] = len;
    a->slots[i] = a->nnodes + 1;
    return a->nnodes++;
}

/* Creates the nodes: the builtins (sync) and the defined names. */
static int make_nodes(analysis *a)
{
    size_t max = NBUILTINS + a->ndefs, cap = 64;
    while (cap < 2 * max)
        cap *= 2;
    a->slots = calloc(cap, sizeof(*a->slots));
    a->names = malloc(max * sizeof(*a->names));
    a->lens = malloc(max * sizeof(*a->lens));
    a->sync = calloc(max, 1);
    if (!a->slots || !a->names || !a->lens || !a->sync)
        return -1;
    a->mask = (uint32_t)(cap - 1);
    for (size_t i = 0; i < NBUILTINS; i++)
        a->sync[node(a, sync_builtins[i], strlen(sync_builtins[i]), 1)] = 1;
    for (size_t i = 0; i < a->ndefs; i++) {
        const gpulab_rw_token *name = &a->t[a->defs[i].name];
        a->defs[i].node = (uint32_t)node(a, a->src + name->start, name->len, 1);
    }
    return 0;
}

/* Edges callee -> caller as pairs (callee in [2k], caller in [2k + 1]). */
static uint32_t *make_edges(analysis *a, size_t *nedges)
{
    uint32_t *e = NULL;
    size_t n = 0, cap = 0;
    for (size_t d = 0; d < a->ndefs; d++) {
        for (size_t i = a->defs[d].body + 1; i < a->defs[d].end; i++) {
            size_t v =
                a->t[i].kind == RW_IDENT ? node(a, a->src + a->t[i].start, a->t[i].len, 0) : NONE;
            if (v == NONE || v == a->defs[d].node)
                continue;
            if (grow(a, (void **)&e, &cap, n, 2 * sizeof(*e)) != 0)
                break;
            e[2 * n] = (uint32_t)v;
            e[2 * n + 1] = a->defs[d].node;
            n++;
        }
    }
    *nedges = n;
    return e;
}

/* Marks sync every node that reaches a sync node, walking the edges backwards. */
static int propagate(analysis *a)
{
    size_t ne, qn = 0;
    uint32_t *e = make_edges(a, &ne);
    size_t *first = calloc(a->nnodes + 1, sizeof(*first));
    uint32_t *callers = malloc((ne ? ne : 1) * sizeof(*callers));
    uint32_t *queue = malloc(a->nnodes * sizeof(*queue));
    int rc = -1;
    if (a->oom || !first || !callers || !queue)
        goto free_all;
    for (size_t k = 0; k < ne; k++)
        first[e[2 * k] + 1]++;
    for (size_t v = 0; v < a->nnodes; v++)
        first[v + 1] += first[v];
    for (size_t k = 0; k < ne; k++)
        callers[first[e[2 * k]]++] = e[2 * k + 1];
    for (size_t v = a->nnodes; v > 0; v--)
        first[v] = first[v - 1];
    first[0] = 0;
    for (uint32_t v = 0; v < a->nnodes; v++)
        if (a->sync[v])
            queue[qn++] = v;
    for (size_t q = 0; q < qn; q++)
        for (size_t k = first[queue[q]]; k < first[queue[q] + 1]; k++)
            if (!a->sync[callers[k]]) {
                a->sync[callers[k]] = 1;
                queue[qn++] = callers[k];
            }
    rc = 0;
free_all:
    free(e);
    free(first);
    free(callers);
    free(queue);
    return rc;
}

/* Moves the kernels out of @p a into a new array (NULL when there are none); a
 * kernel defined twice under one name (in #if branches) is listed once. */
static int take_kernels(analysis *a, gpulab_rw_kernel **kernels, size_t *count)
{
    size_t nk = 0, *last = malloc(a->nnodes * sizeof(*last)); /* per node: its latest kernel */
    for (size_t i = 0; i < a->ndefs; i++)
        nk += a->defs[i].global;
    gpulab_rw_kernel *k = nk ? malloc(nk * sizeof(*k)) : NULL;
    if (!last || (nk && !k)) {
        free(last);
        return -1;
    }
    for (size_t v = 0; v < a->nnodes; v++)
        last[v] = NONE;
    nk = 0;
    for (size_t i = 0; i < a->ndefs; i++) {
        fndef *f = &a->defs[i];
        size_t prev = last[f->node];
        if (!f->global || (prev != NONE && strcmp(k[prev].name, f->qname) == 0))
            continue;
        last[f->node] = nk;
        k[nk++] = (gpulab_rw_kernel){ f->qname, a->t[f->name].line, a->sync[f->node], f->tmpl };
        f->qname = NULL;
    }
    free(last);
    *kernels = k;
    *count = nk;
    return 0;
}

int gpulab_rw_find_kernels(const char *src, const gpulab_rw_tokens *toks,
                           gpulab_rw_kernel **kernels, size_t *count)
{
    analysis a = { .src = src, .t = toks->v, .n = toks->n };
    *kernels = NULL;
    *count = 0;
    collect_defs(&a);
    int rc = a.oom || a.scope.oom || make_nodes(&a) != 0 || propagate(&a) != 0 ||
                     take_kernels(&a, kernels, count) != 0
                 ? -1
                 : 0;
    for (size_t i = 0; i < a.ndefs; i++)
        free(a.defs[i].qname);
    free(a.defs);
    free(a.scope.p);
    free(a.marks);
    free((void *)a.names);
    free(a.lens);
    free(a.slots);
    free(a.sync);
    return rc;
}
