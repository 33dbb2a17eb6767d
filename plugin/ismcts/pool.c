/* cardbot ismcts — the weighted belief pool, built on the search threads (plugin/common/belief.h:
 * world i of the pool on thread i mod n; the pool does not depend on n). */
#include <pthread.h>
#include <stdbool.h>

#include "ismcts.h"

typedef struct fill_job {
    is_inst *m;
    is_thread *t;
    const cb_view *v;
    int first, stride, n;
    uint64_t seed;
    int rc;
} fill_job;

static void *fill_main(void *arg)
{
    fill_job *j = arg;
    is_inst *m = j->m;
    is_thread *t = j->t;
    j->rc = -1;
    if (!t->bs.ready && cb_belief_init(&t->bs) != 0)
        return NULL;
    t->bs.cut = false;
    t->bs.rule_model = m->belief.rule_model; /* the replay asks the models the pool weighs by */
    t->worlds = m->worlds; /* its own copy (the sampler counts); the proofs are shared, read only */
    j->rc = cb_belief_fill(&m->belief, &t->bs, j->v, &t->worlds, j->first, j->stride, j->n,
                           m->p.belief, j->seed);
    return NULL;
}

/* Build m->belief's slots from..worlds-1: world i of the pool on thread i mod n (the pool does
 * not depend on n, see belief.h), or on one thread for walks. from = 0 builds a new pool; from
 * > 0 grows the finished pool of `from` slots (cb_belief_extend). Returns the pool's size, 0
 * or -1 when none. */
int is_pool_fill(is_inst *m, const cb_view *v, int n, uint64_t seed, int from, int worlds)
{
    if (from == 0 && m->belief.chains > 0)
        return cb_belief_build(&m->belief, v, &m->worlds, worlds, m->p.belief, seed);
    if (from > 0 ? cb_belief_extend(&m->belief, v, from, worlds) != 0 : cb_belief_reserve(&m->belief, v, worlds) != 0)
        return -1;
    fill_job jobs[IS_MAX_THREADS];
    pthread_t tid[IS_MAX_THREADS];
    bool started[IS_MAX_THREADS];
    for (int i = 0; i < n; i++) {
        jobs[i] = (fill_job){.m = m, .t = m->th[i], .v = v, .first = from + i, .stride = n, .n = worlds, .seed = seed, .rc = -1};
        started[i] = i > 0 && pthread_create(&tid[i], NULL, fill_main, &jobs[i]) == 0;
    }
    fill_main(&jobs[0]);
    int rc = jobs[0].rc;
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            fill_main(&jobs[i]); /* no thread: do its share here */
        if (jobs[i].rc != 0)
            rc = -1;
    }
    if (rc != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (m->th[i]->bs.cut)
            m->belief.cut = true;
    return cb_belief_finish(&m->belief, worlds, m->p.belief);
}

int is_pool_best(const cb_belief *b, int pooled)
{
    int k = 0;
    for (int i = 0; pooled > 0 && i < b->n; i++)
        k += b->mismatch[i] == b->min_mismatch;
    return k;
}

