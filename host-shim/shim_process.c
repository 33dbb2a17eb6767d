/* cardbot shim — process isolation: one forked worker per plugin instance.
 *
 * Why fork and not exec a helper: the child needs nothing but the plugin's bytes (a sealed
 * copy the config read, or the path while it still names them), the strategy's parameters
 * and a socket, all of which fork hands over, and no separate executable has to be installed
 * next to the library. The host itself never loads a plugin in this mode (a constructor that
 * segfaults must not take it down): the child loads it, checks it, reports what it loaded in
 * a LOADED frame, then calls create() and says hello (shim_process.h). The config's own check
 * is such a worker too, stopped once it said hello (shim_worker_check).
 *
 * The child runs no host code after fork beyond this file and the loader: it
 *   - makes itself a process group of its own (setpgid; the parent does the same for it, so
 *     the group exists whichever runs first) and asks for SIGKILL when its parent goes away
 *     (PR_SET_PDEATHSIG, then getppid() against the host's pid: a host that died between the
 *     fork and the prctl would never send the signal). Every stop of a worker — a kill, a
 *     restart, the end of a table — SIGKILLs the whole group, so a process the plugin forked
 *     dies with its worker. The signal of PR_SET_PDEATHSIG follows the host THREAD that
 *     forked: shim.h says what that means for hosts that end threads;
 *   - resets caught signals to their defaults (as exec would: a host's handler must not run
 *     in a worker; under ASan this also makes a crashing plugin die of its signal instead of
 *     ASan's report) and drops the host's unflushed stdio buffers (so a plugin that calls
 *     exit() cannot print the host's pending output twice);
 *   - keeps its socket (at 3) and the plugin's copy (at 4, closed once loaded), closes every
 *     other inherited descriptor, reads stdin from /dev/null and sends stdout to the host's
 *     stderr: a plugin's printf can neither steal the host's input nor mix into what the host
 *     prints on stdout (cardbot match's results, cardbot serve's protocol), and its
 *     diagnostics stay where the host's go;
 *   - sets the config's limits (worker_memory_mb: RLIMIT_AS at the size it was forked with
 *     plus that many MB, so the host's own footprint, inherited copy-on-write, does not count;
 *     worker_cpu_s: RLIMIT_CPU, SIGXCPU at the limit and SIGKILL a second later), then loads
 *     the plugin and creates the instance under them;
 *   - with [shim] sandbox = on, installs a seccomp allow-list once the instance exists
 *     (child_sandbox below) and only then says hello: from the first decision on, the plugin
 *     can answer on its socket and compute, nothing else;
 *   - always leaves with _exit (no host atexit handlers). glibc's fork makes malloc, stdio and
 *     the dynamic loader usable in the child of a threaded host; the child takes none of the
 *     shim's locks (for what other runtimes do not make safe, ASan's allocator among them,
 *     see worker_start).
 *
 * The wire (shim_process.h): a SOCK_STREAM socketpair, frames of a header plus payload. The
 * parent's end is non-blocking; every write and read waits with ppoll() against the decision's
 * deadline = budget_ms + a margin (10 ms + budget/20, cutechess's "time left + margin"), and
 * against the worker's pidfd, so a death is seen even if its socket end leaked somewhere.
 *
 * SIGPIPE: the host's signal dispositions and masks are never touched. Every write on the
 * socket is send(..., MSG_NOSIGNAL), in both processes, so a dead peer is an EPIPE, not a
 * signal.
 *
 * Faults (per worker, one thread at a time: a table is used by one thread at a time):
 *   no reply by the deadline    SIGKILL + waitpid, CB_FB_LATE, no answer (the fallback answers)
 *   EOF / death / broken frame  reap (SIGKILL first when alive), CB_FB_CRASHED, the fallback
 *   a reply with an older seq   a stale answer: read and dropped, the wait goes on
 * A worker that hits worker_memory_mb sees its allocations fail (most plugins then crash:
 * CB_FB_CRASHED); one that hits worker_cpu_s dies of SIGXCPU (CB_FB_CRASHED, or CB_FB_LATE
 * when it was in a decision past its deadline anyway). A worker that is gone is restarted
 * (fork, load, create again) at the seat's next decision. If it keeps failing — k failures
 * with no decision served in between — the next restart waits for 2^(k-2) decisions (capped
 * at SHIM_MAX_SKIP), answered by the fallback and counted CB_FB_NO_PLUGIN: collectd's
 * doubling back-off, counted in decisions rather than seconds so a match replays the same
 * way whatever the machine's speed. One decision served resets it, and so does a new game
 * (shim_worker_new_game): the back-off is a function of the current game alone, so a game
 * gives the same fallbacks whichever games its table played before (any --concurrency).
 *
 * Ending a worker (cb_table_free, reload switch): shut the socket for writing -> the child
 * reads EOF, destroys its instance and exits; after a grace of SHIM_GRACE_MS the group is
 * SIGKILLed in any case (before the leader is reaped: while it is a zombie its pid, the
 * group's id, cannot be reused); then waitpid. The child also has a watchdog thread that ends
 * its process group when the host's end goes away, so a worker spinning in a plugin loop
 * never outlives a host that died without cleaning up. Signals to the leader go through the
 * pidfd when the kernel has one (no pid-reuse race), else kill(); a host must not reap the
 * shim's children itself (SIGCHLD = SIG_IGN or a waitpid(-1) loop): the shim copes (ECHILD)
 * but loses the exit status.
 *
 * What the host sees besides answers: its workers are its children (named "cbw-STRATEGY" in
 * ps), so their exits raise SIGCHLD in it (a host that handles SIGCHLD sees them; with the
 * default disposition nothing happens). The times counted in cb_shim_stats are round trips as
 * the host waits them, a restart's fork, load and create() excluded (the host does wait for
 * those: a restart happens inside the decision that needs it). After a worker is killed for
 * being late, the fallback is asked with the same budget, so such a decision can take up to
 * twice the budget plus the margin.
 */
#include "shim_int.h"
#include "shim_process.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHIM_START_MS 10000u  /* loading and create() in a new worker, hello included */
#define SHIM_GRACE_MS 200u    /* a stopping worker's time to exit on its own */
#define SHIM_REAP_MS 100u     /* after EOF: time for the worker to finish dying */
#define SHIM_MAX_SKIP 1024u   /* back-off cap, in decisions */
#define SHIM_BUF_INIT 8192u   /* request buffer: a whole game's history fits */

/* The request copies cb_view whole and re-points only rules and history in the child. A
 * member added to cb_view (an ABI minor) travels by itself — unless it is a pointer, which
 * must be re-pointed in child_main like those two: this trips when cb_view grows, to look. */
_Static_assert(sizeof(cb_view) == offsetof(cb_view, pad2) + sizeof(int32_t),
               "cb_view grew: check that child_main gives the plugin every new member");

struct shim_worker {
    const shim_conf *conf; /* borrowed: the table holds a reference */
    int strat;
    pid_t pid;             /* -1: no process */
    int fd;                /* our socket end, non-blocking; -1 none */
    int pidfd;             /* -1 when the kernel has none */
    uint64_t seq;
    unsigned fails;        /* failures since the last decision served */
    unsigned skip;         /* decisions to let pass before the next restart */
    unsigned char *buf;    /* request frame */
    size_t cap;
};

enum { IO_OK = 0, IO_TIMEOUT, IO_DEAD, IO_PROTO };

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t margin_ms(uint32_t budget_ms)
{
    return 10u + budget_ms / 20u;
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGPIPE: return "SIGPIPE";
    case SIGXCPU: return "SIGXCPU";
    default: return "signal";
    }
}

/* ================================ the worker (child) ================================ */

#define CHILD_SOCK 3 /* the worker's socket */
#define CHILD_COPY 4 /* the plugin's copy, until it is loaded */

/* What the child is to run: set by the parent before fork, read by the child only. */
typedef struct child_job {
    const shim_conf *c;
    int s;
    int sock;           /* the child's socket end */
    pid_t host;         /* the host's pid, for the parent-death check */
    unsigned char *buf; /* the request buffer, allocated by the parent (see worker_start) */
    size_t cap;
} child_job;

static int child_read(int fd, void *p, size_t n)
{
    unsigned char *b = p;
    while (n > 0) {
        ssize_t k = recv(fd, b, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int child_write(int fd, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Ends the worker — its whole process group when it leads one — as soon as the host's end of
 * the socket goes away, whatever the plugin is doing in the main thread. */
static void *child_watchdog(void *arg)
{
    int fd = (int)(intptr_t)arg;
    for (;;) {
        struct pollfd p = { fd, POLLRDHUP, 0 };
        int r = poll(&p, 1, -1);
        if (r > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) {
            if (getpgrp() == getpid())
                kill(0, SIGKILL); /* what the plugin forked, and us */
            _exit(0);
        }
    }
    return NULL;
}

/* fd moved to exactly want (want itself not yet in use by anything we keep). */
static int move_fd(int fd, int want)
{
    if (fd == want)
        return 0;
    return dup2(fd, want) == want ? 0 : -1;
}

/* Make the child look like a freshly exec'd helper as far as the host's state goes: default
 * signal handlers, no host stdio buffers, no host descriptors but the socket (at CHILD_SOCK)
 * and the plugin's copy (at CHILD_COPY), stdin from /dev/null, stdout to stderr. 0 or -1. */
static int child_isolate(int sock, int copy)
{
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) != 0)
            continue;
        bool caught = (sa.sa_flags & SA_SIGINFO) ? sa.sa_sigaction != NULL
                                                 : sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN;
        if (caught) {
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = SIG_DFL;
            sigemptyset(&sa.sa_mask);
            sigaction(sig, &sa, NULL);
        }
    }
    __fpurge(stdout);
    __fpurge(stderr);
    /* both out of the way first (either may sit at 3 or 4), then in place; everything else
     * closed (other workers' ends among them: a worker must not keep another one's socket
     * alive, or that one's death would go unseen) */
    int hs = fcntl(sock, F_DUPFD, 10), hc = copy >= 0 ? fcntl(copy, F_DUPFD, 10) : -1;
    if (hs < 0 || (copy >= 0 && hc < 0) || move_fd(hs, CHILD_SOCK) != 0 ||
        (hc >= 0 && move_fd(hc, CHILD_COPY) != 0))
        return -1;
    if (close_range(hc >= 0 ? CHILD_COPY + 1 : CHILD_SOCK + 1, ~0u, 0) != 0) {
        struct rlimit rl;
        rlim_t top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                         ? rl.rlim_cur : 65536;
        if (top > 65536)
            top = 65536;
        for (int i = hc >= 0 ? CHILD_COPY + 1 : CHILD_SOCK + 1; i < (int)top; i++)
            close(i);
    }
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        if (fcntl(2, F_GETFD) < 0) /* no stderr: nowhere for the plugin to print */
            dup2(null, 2);
        if (null > 2)
            close(null);
    }
    dup2(2, 1);
    return 0;
}

static void dec_init(cb_decision *d)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->value = NAN;
    d->minhands_before = d->minhands_after = -1;
}

/* One limit: soft at want, hard at hard_extra above it, both under the existing hard limit
 * (raising that takes a privilege). 0 or errno. */
static int set_limit(int res, rlim_t want, rlim_t hard_extra)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) != 0)
        return errno;
    rlim_t hard = want + hard_extra;
    if (rl.rlim_max != RLIM_INFINITY && hard > rl.rlim_max)
        hard = rl.rlim_max;
    rl.rlim_max = hard;
    rl.rlim_cur = want < hard ? want : hard;
    return setrlimit(res, &rl) == 0 ? 0 : errno;
}

/* The config's limits on this worker. 0, or -1 with a message. */
static int child_limits(const shim_conf *c, char *err, size_t errlen)
{
    if (c->worker_memory_mb) {
        /* on top of what the worker was forked with: the host's image (and under ASan its
         * shadow reservations) is not the plugin's to pay for */
        unsigned long pages = 0;
        FILE *fp = fopen("/proc/self/statm", "re");
        if (fp) {
            if (fscanf(fp, "%lu", &pages) != 1)
                pages = 0;
            fclose(fp);
        }
        rlim_t base = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
        int e = set_limit(RLIMIT_AS, base + ((rlim_t)c->worker_memory_mb << 20), 0);
        if (e) {
            snprintf(err, errlen, "worker_memory_mb: setrlimit(RLIMIT_AS): %s", strerror(e));
            return -1;
        }
    }
    if (c->worker_cpu_s) {
        int e = set_limit(RLIMIT_CPU, c->worker_cpu_s, 1); /* SIGXCPU, a second later SIGKILL */
        if (e) {
            snprintf(err, errlen, "worker_cpu_s: setrlimit(RLIMIT_CPU): %s", strerror(e));
            return -1;
        }
    }
    return 0;
}

/* ---- the sandbox ----
 *
 * Installed once the instance exists, for every thread of the worker (TSYNC: the watchdog's
 * and any a plugin started in create()), with no_new_privs. What stays allowed is what a
 * worker needs to answer on its socket and compute (measured with strace -f on the heuristic
 * and ismcts plugins, plain and ASan builds):
 *   the socket          read, recvfrom, recvmsg, write, sendto, sendmsg on fd 3 only
 *   diagnostics         write, writev on 1 and 2 (both the host's stderr)
 *   waiting             poll, ppoll (the watchdog), futex, sched_yield, nanosleep,
 *                       clock_nanosleep, restart_syscall, clock_gettime, clock_getres,
 *                       gettimeofday (the vDSO answers most of these without a call)
 *   memory              brk, mmap, munmap, mremap, mprotect, madvise
 *   threads             clone with CLONE_THREAD (ismcts' search threads), set_robust_list,
 *                       rseq, sigaltstack, sched_getaffinity (malloc sizing its arenas),
 *                       gettid, getpid, getpgrp; clone3 says ENOSYS so glibc falls back to clone,
 *                       whose flags a filter can see
 *   signals             rt_sigreturn, rt_sigprocmask, tgkill on this process only (raise,
 *                       abort: a crash still dies of its own signal), kill(0, SIGKILL) (the
 *                       watchdog ending its own group)
 *   the rest of life    getrandom, close, exit, exit_group
 * Everything else — open/openat, stat, socket, connect, bind, fork (clone without
 * CLONE_THREAD), vfork, execve, ptrace, kill of another process, ioctl, prctl, setrlimit ... —
 * fails with EPERM: an ordinary error the plugin can handle (or crash on, which is a crash
 * like any other). The only kill is where an errno cannot make sense: a system call of
 * another architecture's ABI (i386 or x32 numbers on x86_64, which an allow-list written in
 * native numbers cannot judge) kills the worker (libseccomp's default bad-arch action). */

typedef struct sys_rule {
    int nr;
    int narg;          /* 0, 1 or 2 */
    struct scmp_arg_cmp a, b;
} sys_rule;

static int child_sandbox(char *err, size_t errlen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!ctx) {
        snprintf(err, errlen, "sandbox: seccomp_init failed");
        return -1;
    }
    static const int plain[] = {
        SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(futex), SCMP_SYS(sched_yield),
        SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(restart_syscall),
        SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday),
        SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
        SCMP_SYS(madvise), SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(sigaltstack),
        SCMP_SYS(sched_getaffinity), SCMP_SYS(gettid), SCMP_SYS(getpid), SCMP_SYS(getpgrp),
        SCMP_SYS(rt_sigreturn),
        SCMP_SYS(rt_sigprocmask), SCMP_SYS(getrandom), SCMP_SYS(close), SCMP_SYS(exit),
        SCMP_SYS(exit_group),
    };
    const struct scmp_arg_cmp none = { 0, 0, 0, 0 };
    const sys_rule with_args[] = {
        { SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(recvfrom), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(recvmsg), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(sendto), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(sendmsg), 1, SCMP_A0(SCMP_CMP_EQ, CHILD_SOCK), none },
        { SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 1), none },
        { SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 2), none },
        { SCMP_SYS(writev), 1, SCMP_A0(SCMP_CMP_EQ, 1), none },
        { SCMP_SYS(writev), 1, SCMP_A0(SCMP_CMP_EQ, 2), none },
        { SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD), none },
        { SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()), none },
        { SCMP_SYS(kill), 2, SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A1(SCMP_CMP_EQ, SIGKILL) },
        { SCMP_SYS(getpgid), 1, SCMP_A0(SCMP_CMP_EQ, 0), none },
    };
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    const char *what = "TSYNC";
    for (size_t i = 0; rc == 0 && i < sizeof plain / sizeof plain[0]; i++) {
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain[i], 0);
        what = "a rule";
    }
    for (size_t i = 0; rc == 0 && i < sizeof with_args / sizeof with_args[0]; i++) {
        const sys_rule *r = &with_args[i];
        rc = r->narg == 2 ? seccomp_rule_add(ctx, SCMP_ACT_ALLOW, r->nr, 2, r->a, r->b)
                          : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, r->nr, 1, r->a);
    }
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0) {
        what = "seccomp_load";
        rc = seccomp_load(ctx);
    }
    seccomp_release(ctx);
    if (rc != 0) {
        snprintf(err, errlen, "sandbox: %s failed: %s", what, strerror(-rc));
        return -1;
    }
    return 0;
}

/* Load the plugin, report it, create the instance, sandbox, hello, serve. */
__attribute__((noreturn))
static void child_main(const child_job *job)
{
    const shim_conf *c = job->c;
    const shim_strategy *st = &c->strat[job->s];
    unsigned char *buf = job->buf;
    size_t cap = job->cap;
    /* a group of its own, and dead with the host (the check: the host may already be gone) */
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != job->host)
        _exit(0);
    if (child_isolate(job->sock, st->plugin->memfd) != 0)
        _exit(4);
    int fd = CHILD_SOCK;
    char name[16];
    snprintf(name, sizeof name, "cbw-%s", st->name);
    prctl(PR_SET_NAME, name, 0, 0, 0);
    pthread_t wd;
    pthread_attr_t at;
    if (pthread_attr_init(&at) == 0) {
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        (void)pthread_create(&wd, &at, child_watchdog, (void *)(intptr_t)fd);
        pthread_attr_destroy(&at);
    }

    struct {
        shim_wire_hdr h;
        shim_wire_loaded m;
    } loaded;
    memset(&loaded, 0, sizeof loaded);
    loaded.h = (shim_wire_hdr){ SHIM_WIRE_MAGIC, SHIM_WIRE_LOADED, 0, sizeof loaded.m, 0 };
    const cb_bot *bot = NULL;
    if (child_limits(c, loaded.m.err, sizeof loaded.m.err) == 0)
        bot = shim_plugin_open_worker(st->plugin, st->plugin->memfd >= 0 ? CHILD_COPY : -1,
                                      loaded.m.err, sizeof loaded.m.err);
    if (st->plugin->memfd >= 0)
        close(CHILD_COPY); /* loaded (mapped) or refused: the descriptor is done */
    if (bot) {
        loaded.m.ok = 1;
        loaded.m.abi_version = bot->abi_version;
        loaded.m.has_bid = bot->decide_bid != NULL;
        snprintf(loaded.m.name, sizeof loaded.m.name, "%s", bot->name ? bot->name : "");
        snprintf(loaded.m.version, sizeof loaded.m.version, "%s", bot->version ? bot->version : "");
    }
    loaded.m.err[sizeof loaded.m.err - 1] = '\0';
    if (child_write(fd, &loaded, sizeof loaded) != 0 || !bot)
        _exit(0);

    struct {
        shim_wire_hdr h;
        shim_wire_hello m;
    } hello;
    memset(&hello, 0, sizeof hello);
    hello.h = (shim_wire_hdr){ SHIM_WIRE_MAGIC, SHIM_WIRE_HELLO, 0, sizeof hello.m, 0 };
    hello.m.pid = (int32_t)getpid();
    void *inst = bot->create(st->params, shim_strategy_nparams(st, bot->name), hello.m.err, sizeof hello.m.err);
    hello.m.err[sizeof hello.m.err - 1] = '\0';
    hello.m.ok = inst != NULL;
    if (inst && c->sandbox && child_sandbox(hello.m.err, sizeof hello.m.err) != 0)
        hello.m.ok = 0; /* never serve outside the sandbox the config asked for */
    if (child_write(fd, &hello, sizeof hello) != 0 || !hello.m.ok)
        _exit(0);

    for (;;) {
        shim_wire_hdr h;
        if (child_read(fd, &h, sizeof h) != 0)
            break; /* the host closed: we are done */
        if (shim_wire_req_header_ok(&h) != 0)
            _exit(2);
        if (h.len > cap) {
            unsigned char *nb = realloc(buf, h.len);
            if (!nb)
                _exit(3);
            buf = nb;
            cap = h.len;
        }
        if (child_read(fd, buf, h.len) != 0)
            break;
        cb_view v;
        if (shim_wire_req_view(&h, buf, &v) != 0)
            _exit(2);

        struct {
            shim_wire_hdr h;
            shim_wire_rep r;
        } rep;
        memset(&rep, 0, sizeof rep);
        rep.h = (shim_wire_hdr){ SHIM_WIRE_MAGIC, SHIM_WIRE_DECISION, h.seq, sizeof rep.r, 0 };
        dec_init(&rep.r.dec);
        int (*fn)(void *, const cb_view *, cb_decision *) =
            h.type == SHIM_WIRE_PLAY ? bot->decide_play : bot->decide_bid;
        uint64_t t0 = now_ns();
        rep.r.rc = fn ? fn(inst, &v, &rep.r.dec) : -1;
        rep.r.ns = now_ns() - t0;
        if (child_write(fd, &rep, sizeof rep) != 0)
            break;
    }
    bot->destroy(inst);
    _exit(0);
}

/* ================================ the host (parent) ================================ */

/* -DSHIM_NO_PIDFD builds the path for kernels without pidfds (before Linux 5.3), to test it */
#ifdef SHIM_NO_PIDFD
#undef SYS_pidfd_open
#undef SYS_pidfd_send_signal
#endif

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#else
    (void)pid;
    return -1;
#endif
}

static void send_kill(const shim_worker *w)
{
#ifdef SYS_pidfd_send_signal
    if (w->pidfd >= 0 && syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0) == 0)
        return;
    if (w->pidfd >= 0 && errno == ESRCH)
        return; /* already gone (a zombie still takes the signal; gone means reaped) */
#endif
    kill(w->pid, SIGKILL);
}

/* Wait up to ms for the worker to exit (not reaping it). True when it has. */
static bool wait_exit(const shim_worker *w, unsigned ms)
{
    if (w->pidfd >= 0) {
        struct pollfd p = { w->pidfd, POLLIN, 0 };
        uint64_t end = now_ns() + (uint64_t)ms * 1000000u;
        for (;;) {
            uint64_t t = now_ns();
            int left = t >= end ? 0 : (int)((end - t + 999999u) / 1000000u);
            int r = poll(&p, 1, left);
            if (r > 0)
                return true;
            if (r == 0 || (r < 0 && errno != EINTR))
                return false;
        }
    }
    siginfo_t si;
    for (unsigned i = 0; i <= ms * 4; i++) {
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
            return errno == ECHILD;
        if (si.si_pid == w->pid)
            return true;
        struct timespec ts = { 0, 250000 };
        nanosleep(&ts, NULL);
    }
    return false;
}

/* Reap the worker (SIGKILL first unless it is known to have exited), close its descriptors,
 * describe how it ended in what (may be NULL). */
static void worker_end(shim_worker *w, bool exited, char *what, size_t whatlen)
{
    if (w->pid > 0) {
        if (!exited)
            send_kill(w);
        /* whatever the plugin forked dies with its worker: the group, SIGKILLed while its
         * leader is still unreaped (so the group's id cannot belong to anyone else yet) */
        kill(-w->pid, SIGKILL);
        int st = 0;
        pid_t r;
        do
            r = waitpid(w->pid, &st, 0);
        while (r < 0 && errno == EINTR);
        if (what && whatlen) {
            if (r != w->pid)
                snprintf(what, whatlen, "exit status unknown (reaped elsewhere)");
            else if (WIFSIGNALED(st))
                snprintf(what, whatlen, "signal %d (%s)", WTERMSIG(st), sig_name(WTERMSIG(st)));
            else if (WIFEXITED(st))
                snprintf(what, whatlen, "exit %d", WEXITSTATUS(st));
            else
                snprintf(what, whatlen, "status 0x%x", (unsigned)st);
        }
    }
    if (w->fd >= 0)
        close(w->fd);
    if (w->pidfd >= 0)
        close(w->pidfd);
    w->pid = -1;
    w->fd = w->pidfd = -1;
}

/* Send n bytes before the deadline. */
static int io_write(shim_worker *w, const void *p, size_t n, uint64_t deadline)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t k = send(w->fd, b, n, MSG_NOSIGNAL);
        if (k > 0) {
            b += k;
            n -= (size_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return IO_DEAD; /* EPIPE, ECONNRESET: the worker is gone */
        uint64_t t = now_ns();
        if (t >= deadline)
            return IO_TIMEOUT;
        struct timespec ts = { (time_t)((deadline - t) / 1000000000u), (long)((deadline - t) % 1000000000u) };
        struct pollfd pf[2] = { { w->fd, POLLOUT, 0 }, { w->pidfd, POLLIN, 0 } };
        int r = ppoll(pf, w->pidfd >= 0 ? 2 : 1, &ts, NULL);
        if (r < 0 && errno != EINTR)
            return IO_DEAD;
        if (r > 0 && !(pf[0].revents & (POLLOUT | POLLERR | POLLHUP)) && (pf[1].revents & POLLIN))
            return IO_DEAD;
    }
    return IO_OK;
}

/* Read n bytes before the deadline. A worker that exited with the bytes still unsent is dead;
 * bytes it sent before dying are still read. */
static int io_read(shim_worker *w, void *p, size_t n, uint64_t deadline)
{
    unsigned char *b = p;
    while (n > 0) {
        ssize_t k = recv(w->fd, b, n, 0);
        if (k > 0) {
            b += k;
            n -= (size_t)k;
            continue;
        }
        if (k == 0)
            return IO_DEAD; /* EOF */
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return IO_DEAD;
        uint64_t t = now_ns();
        if (t >= deadline)
            return IO_TIMEOUT;
        struct timespec ts = { (time_t)((deadline - t) / 1000000000u), (long)((deadline - t) % 1000000000u) };
        struct pollfd pf[2] = { { w->fd, POLLIN, 0 }, { w->pidfd, POLLIN, 0 } };
        int r = ppoll(pf, w->pidfd >= 0 ? 2 : 1, &ts, NULL);
        if (r < 0 && errno != EINTR)
            return IO_DEAD;
        if (r > 0 && !(pf[0].revents & (POLLIN | POLLERR | POLLHUP)) && (pf[1].revents & POLLIN)) {
            /* exited: take what it sent before, then EOF */
            k = recv(w->fd, b, n, 0);
            if (k <= 0)
                return IO_DEAD;
            b += k;
            n -= (size_t)k;
        }
    }
    return IO_OK;
}

/* Read one frame of type type whose payload is exactly len bytes into payload. */
static int read_frame(shim_worker *w, uint32_t type, shim_wire_hdr *h, void *payload, size_t len,
                      uint64_t deadline, char *why, size_t whylen)
{
    int r = io_read(w, h, sizeof *h, deadline);
    if (r != IO_OK)
        return r;
    if (h->magic != SHIM_WIRE_MAGIC) {
        snprintf(why, whylen, "bad frame magic 0x%08x", (unsigned)h->magic);
        return IO_PROTO;
    }
    if (h->type != type || h->len != len) {
        snprintf(why, whylen, "unexpected frame (type %u, %u bytes)", (unsigned)h->type, (unsigned)h->len);
        return IO_PROTO;
    }
    return io_read(w, payload, len, deadline);
}

/* Why a start failed, for the two kinds of message (shim_worker_new). */
typedef struct start_err {
    bool load;      /* the plugin did not load ("plugin" names the key) rather than create() */
    char msg[640];  /* without the "FILE: [strategy.NAME]" prefix */
} start_err;

__attribute__((format(printf, 3, 4)))
static void start_fail(start_err *e, bool load, const char *fmt, ...)
{
    e->load = load;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

/* "FILE: [strategy.NAME] plugin: ..." for a load, "FILE: [strategy.NAME]: ..." for create(),
 * as in-process (shim_config.c). */
static void describe_start_error(const shim_conf *c, int s, const start_err *e, char *err, size_t errlen)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: [%s]%s: %s", c->file, c->strat[s].group, e->load ? " plugin" : "",
                 e->msg);
}

/* Fork a worker, wait for its loaded and hello frames. CB_OK, or why not: CB_FB_NO_PLUGIN
 * (the plugin refused to load, create() refused, or no fork), CB_FB_CRASHED (died or garbled
 * while loading or creating), CB_FB_LATE (over SHIM_START_MS). What it loaded goes to *lo. */
static int worker_start_once(shim_worker *w, shim_wire_loaded *lo, start_err *e)
{
    const shim_conf *c = w->conf;
    int s = w->strat;
    const shim_plugin *pl = c->strat[s].plugin;
    /* the request buffer exists before fork: the child's serving loop then allocates nothing
     * of its own for any ordinary view (one allocation less that could meet an allocator lock
     * another host thread held at the fork: see worker_start) */
    if (w->cap < SHIM_BUF_INIT) {
        w->buf = g_realloc(w->buf, SHIM_BUF_INIT);
        w->cap = SHIM_BUF_INIT;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        start_fail(e, false, "process isolation: socketpair: %s", strerror(errno));
        return CB_FB_NO_PLUGIN;
    }
    child_job job = { c, s, sv[1], getpid(), w->buf, w->cap };
    shim_names_fork_begin(c->names); /* never amid this shim's own dlopen (shim_int.h) */
    pid_t pid = fork();
    if (pid != 0)
        shim_names_fork_end(c->names);
    if (pid < 0) {
        int en = errno;
        close(sv[0]);
        close(sv[1]);
        start_fail(e, false, "process isolation: fork: %s", strerror(en));
        return CB_FB_NO_PLUGIN;
    }
    if (pid == 0) {
        close(sv[0]);
        child_main(&job);
    }
    setpgid(pid, pid); /* as the child does: the group exists whichever of us runs first */
    close(sv[1]);
    w->pid = pid;
    w->fd = sv[0];
    w->pidfd = pidfd_of(pid);
    fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);

    shim_wire_hdr h;
    shim_wire_hello m;
    char why[160] = "", what[64] = "";
    uint64_t deadline = now_ns() + (uint64_t)SHIM_START_MS * 1000000u;
    bool loading = true;
    int r = read_frame(w, SHIM_WIRE_LOADED, &h, lo, sizeof *lo, deadline, why, sizeof why);
    if (r == IO_OK && h.seq != 0) {
        snprintf(why, sizeof why, "loaded frame with seq %llu", (unsigned long long)h.seq);
        r = IO_PROTO;
    }
    if (r == IO_OK && !lo->ok) { /* refused as in-process: the child exits by itself */
        lo->err[sizeof lo->err - 1] = '\0';
        worker_end(w, wait_exit(w, SHIM_GRACE_MS), NULL, 0);
        start_fail(e, true, "%s", lo->err[0] ? lo->err : "the plugin did not load");
        return CB_FB_NO_PLUGIN;
    }
    if (r == IO_OK) {
        lo->name[sizeof lo->name - 1] = lo->version[sizeof lo->version - 1] = '\0';
        loading = false;
        r = read_frame(w, SHIM_WIRE_HELLO, &h, &m, sizeof m, deadline, why, sizeof why);
        if (r == IO_OK && h.seq != 0) {
            snprintf(why, sizeof why, "hello with seq %llu", (unsigned long long)h.seq);
            r = IO_PROTO;
        }
    }
    if (r == IO_OK && m.ok)
        return CB_OK; /* w->seq goes on across restarts: a restarted worker never sees an old seq */
    if (r == IO_OK) { /* create() refused (or the sandbox could not be set): it exits by itself */
        m.err[sizeof m.err - 1] = '\0';
        worker_end(w, wait_exit(w, SHIM_GRACE_MS), NULL, 0);
        if (m.err[0])
            start_fail(e, false, "%s", m.err);
        else
            start_fail(e, false, "%s: create() failed without a message",
                       lo->name[0] ? lo->name : "plugin");
        return CB_FB_NO_PLUGIN;
    }
    if (r == IO_TIMEOUT) {
        worker_end(w, false, NULL, 0);
        start_fail(e, loading, "%s took over %u ms in its worker: killed",
                   loading ? "loading the plugin" : "create()", SHIM_START_MS);
        return CB_FB_LATE;
    }
    if (r == IO_PROTO) {
        worker_end(w, false, NULL, 0);
        start_fail(e, loading, "the worker broke the protocol while %s (%s): killed",
                   loading ? "loading the plugin" : "creating the instance", why);
        return CB_FB_CRASHED;
    }
    worker_end(w, wait_exit(w, SHIM_REAP_MS), what, sizeof what);
    if (loading)
        start_fail(e, true, "plugin crashed while loading %s: %s", pl->path, what);
    else
        start_fail(e, false, "the worker died while creating the instance (%s)", what);
    return CB_FB_CRASHED;
}

/* A start that gave no frame in time is tried once more before it counts (and so is a death
 * while loading, below). Why: in a threaded
 * host a fork may copy a lock another thread held at that instant, and the child then waits
 * for it forever at its first use. glibc's fork makes its own malloc, stdio and loader locks
 * safe, so a plain build meets this only through a lock of some other library; but GCC 12's
 * ASan allocator does not lock itself around fork (newer sanitizer runtimes do), so an ASan
 * build of a threaded host can hang a new worker in malloc. A second fork, at another
 * instant, does not meet the same held lock. A worker that hangs later, in a decision, is
 * killed at the deadline and restarted like any hung plugin. (An exec'd helper would avoid
 * this for good, at the price of a separate executable to install next to the library.) */
static int worker_start(shim_worker *w, shim_wire_loaded *lo, start_err *e)
{
    int r = worker_start_once(w, lo, e);
    /* a death while loading is tried once more too: a fork taken while some other code of the
     * host was inside dlopen (not ordered by the shim's loader lock: another library, another
     * shim) leaves the child's loader half updated and glibc aborts the child's own dlopen.
     * A plugin that really crashes while loading crashes again. */
    if (r == CB_FB_LATE || (r == CB_FB_CRASHED && e->load))
        r = worker_start_once(w, lo, e);
    return r;
}

static shim_worker *worker_new(const shim_conf *c, int s, shim_wire_loaded *lo, char *err,
                               size_t errlen)
{
    shim_worker *w = g_new0(shim_worker, 1);
    w->conf = c;
    w->strat = s;
    w->pid = -1;
    w->fd = w->pidfd = -1;
    start_err e;
    if (worker_start(w, lo, &e) != CB_OK) {
        describe_start_error(c, s, &e, err, errlen);
        g_free(w->buf);
        g_free(w);
        return NULL;
    }
    return w;
}

shim_worker *shim_worker_new(const shim_conf *c, int s, char *err, size_t errlen)
{
    shim_wire_loaded lo;
    return worker_new(c, s, &lo, err, errlen);
}

void shim_worker_free(shim_worker *w)
{
    if (!w)
        return;
    if (w->pid > 0) {
        /* EOF to the child: it destroys its instance and exits; its group is SIGKILLed after
         * the grace in any case (worker_end) */
        shutdown(w->fd, SHUT_WR);
        worker_end(w, wait_exit(w, SHIM_GRACE_MS), NULL, 0);
    }
    g_free(w->buf);
    g_free(w);
}

int shim_worker_check(const shim_conf *c, int s, char *err, size_t errlen)
{
    shim_wire_loaded lo;
    shim_worker *w = worker_new(c, s, &lo, err, errlen);
    if (!w)
        return -1;
    /* the conf is being built: no other thread sees its fresh plugins yet */
    shim_plugin_describe(c->strat[s].plugin, lo.name, lo.version, lo.abi_version, lo.has_bid != 0);
    shim_worker_free(w);
    return 0;
}

void shim_worker_new_game(shim_worker *w)
{
    if (w) {
        w->fails = 0;
        w->skip = 0;
    }
}

/* One more failure in a row: when may the next restart happen? */
static void back_off(shim_worker *w)
{
    w->fails++;
    unsigned sh = w->fails >= 2 ? w->fails - 2 : 0;
    w->skip = w->fails < 2 ? 0 : sh >= 10 ? SHIM_MAX_SKIP : (1u << sh);
    if (w->skip > SHIM_MAX_SKIP)
        w->skip = SHIM_MAX_SKIP;
}

int shim_worker_decide(shim_worker *w, const cb_view *v, int phase, cb_decision *d, int *prc,
                       uint64_t *ns, char *why, size_t whylen)
{
    *ns = 0;
    *prc = 0;
    if (w->pid < 0) {
        if (w->skip > 0) {
            w->skip--;
            snprintf(why, whylen, "worker down after %u failures, restart in %u decisions",
                     w->fails, w->skip + 1);
            return CB_FB_NO_PLUGIN;
        }
        shim_wire_loaded lo;
        start_err e;
        int r = worker_start(w, &lo, &e);
        if (r != CB_OK) {
            back_off(w);
            snprintf(why, whylen, "restart: %s", e.msg);
            return r;
        }
    }

    size_t nh = v->nhistory > 0 ? (size_t)v->nhistory : 0;
    size_t len = sizeof(shim_wire_req) + nh * sizeof(cb_play_rec);
    if (len > SHIM_MAX_FRAME) {
        snprintf(why, whylen, "view too large for the worker (%zu history entries)", nh);
        return CB_FB_FAILED;
    }
    size_t total = sizeof(shim_wire_hdr) + len;
    if (total > w->cap) {
        w->buf = g_realloc(w->buf, total);
        w->cap = total;
    }
    uint64_t seq = ++w->seq;
    shim_wire_hdr h = { SHIM_WIRE_MAGIC, phase == CB_PHASE_PLAY ? SHIM_WIRE_PLAY : SHIM_WIRE_BID,
                        seq, (uint32_t)len, 0 };
    memcpy(w->buf, &h, sizeof h);
    shim_wire_req *rq = (shim_wire_req *)(w->buf + sizeof h);
    rq->view = *v; /* whole: the shim's upgraded copy (see shim_wire_req) */
    rq->view.rules = NULL;
    rq->view.history = NULL;
    rq->rules = *v->rules;
    if (nh)
        memcpy(w->buf + sizeof h + sizeof *rq, v->history, nh * sizeof(cb_play_rec));

    uint64_t t0 = now_ns();
    uint64_t deadline = t0 + ((uint64_t)v->budget_ms + margin_ms(v->budget_ms)) * 1000000u;
    char pwhy[160] = "";
    shim_wire_hdr rh;
    shim_wire_rep rep;
    int r = io_write(w, w->buf, total, deadline);
    while (r == IO_OK) {
        r = read_frame(w, SHIM_WIRE_DECISION, &rh, &rep, sizeof rep, deadline, pwhy, sizeof pwhy);
        if (r != IO_OK || rh.seq == seq)
            break;
        if (rh.seq > seq) {
            snprintf(pwhy, sizeof pwhy, "reply to request %llu, expected %llu",
                     (unsigned long long)rh.seq, (unsigned long long)seq);
            r = IO_PROTO;
        }
        /* else a stale reply (an older request's): dropped, keep waiting */
    }
    *ns = now_ns() - t0;
    char what[64] = "";
    switch (r) {
    case IO_OK:
        w->fails = 0;
        *d = rep.dec;
        *prc = rep.rc;
        return CB_OK;
    case IO_TIMEOUT:
        worker_end(w, false, NULL, 0);
        back_off(w);
        snprintf(why, whylen, "no answer in %u+%u ms, worker killed", (unsigned)v->budget_ms,
                 (unsigned)margin_ms(v->budget_ms));
        return CB_FB_LATE;
    case IO_PROTO:
        worker_end(w, false, NULL, 0);
        back_off(w);
        snprintf(why, whylen, "protocol: %s, worker killed", pwhy);
        return CB_FB_CRASHED;
    default:
        worker_end(w, wait_exit(w, SHIM_REAP_MS), what, sizeof what);
        back_off(w);
        snprintf(why, whylen, "worker died: %s", what);
        return CB_FB_CRASHED;
    }
}
