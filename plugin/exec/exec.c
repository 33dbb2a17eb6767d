/* cardbot — the exec strategy: a bot in any language, run as a child program that speaks the
 * cardbot-1 JSON-lines protocol (include/cardbot/json.h; README "Bots in any language").
 *
 * Parameters (config keys of a [strategy.NAME] group with plugin = exec):
 *   command = PROGRAM ARG...  required; split like a shell would (g_shell_parse_argv: quotes
 *                             and backslashes) but never run by one: no pipes, globs or $VARs.
 *                             A PROGRAM without '/' is looked up along PATH (env's, if env sets
 *                             it); with one, it is relative to the program's working directory.
 *   cwd = DIR                 the program's working directory (default: the config file's
 *                             directory; relative: to that directory).
 *   env = K=V K2=V2 ...       added to (or replacing in) the host's environment; same quoting.
 *   stderr = prefix|inherit|discard|PATH
 *                             where the program's stderr goes: prefix (default) copies each
 *                             line to the host's stderr as "[exec NAME PID] line"; inherit
 *                             gives it the host's stderr as is; discard sends it to /dev/null;
 *                             anything else is a file (relative: to the config file's
 *                             directory), appended to.
 *   start_ms = N              how long the program may take to answer hello (default 10000).
 *   log = on|off              one line on stderr per failed decision, saying why (default on).
 *   config_dir = DIR          not a config key: the host's. The cardbot shim gives it, the
 *                             config file's directory (absolute), after the config's own keys
 *                             (host-shim/shim_int.h); written in the config it is refused.
 *
 * Relative paths: one rule, the shim's for plugin_dir — they are the config file's
 * directory's, wherever the host was started. The program runs there (or in cwd, itself
 * relative to the config's directory), so a relative PROGRAM and the relative paths in its
 * arguments, which the program opens itself, are found from there too: a config beside its
 * bot says command = python3 bot.py and works from any directory, installed or not. (A host
 * other than the shim that gives no config_dir: the host's working directory, as before.)
 *
 * Life of a program. create() starts it and waits for its hello answer (a program that cannot
 * start, or answers with another protocol, fails create(): the shim refuses the config with
 * the reason — what happened first: "the program exited with status 2 before answering
 * hello; the last line it wrote on stderr: ..." for one that died, the start_ms wording only
 * for one still running when start_ms ran out). decide_bid / decide_play write one request
 * line and read one answer line within view->budget_ms. What can go wrong, and what the shim sees:
 *   - an answer that is not JSON, lacks its member, or names unknown cards; no answer within
 *     the budget; the program exiting or closing its stdout: the decision returns an error,
 *     which the shim counts `failed` and answers by its fallback. The program is killed and
 *     started again at once (its hello answer is read at the seat's next decision, so its
 *     start-up overlaps the other seats' turns); after repeated failures restarts back off
 *     (1, 2, 4 ... 32 decisions answered by the fallback without a program), and the back-off
 *     is forgotten when a new game starts, as the shim's own worker back-off is.
 *   - a well-formed answer that breaks the rules (an illegal play, a bid not allowed): returned
 *     as the program's decision; the shim checks it, counts it `illegal` and falls back. The
 *     program keeps running.
 * An answer may echo the request's "id"; an answer with another id is a stale one and is
 * skipped. Anything the program wrote to stdout before a request is sent is discarded (a
 * program that prints debug text on stdout gets one warning): stdout is for answers.
 *
 * Plumbing, and why:
 *   - stdin and stdout of the program are one end of a socketpair: the plugin writes with
 *     send(MSG_NOSIGNAL), so a program that died cannot kill the host with SIGPIPE, and the
 *     plugin never touches the host's signal dispositions (a plugin must not).
 *   - the program runs in its own process group, and stopping it SIGKILLs the group, so
 *     whatever it started goes too. It gets SIGKILL when the thread that started it exits
 *     (PR_SET_PDEATHSIG): a host that dies never leaves bots behind. A host that ends threads
 *     should keep a table on one thread, as shim.h says for process isolation; otherwise the
 *     next decision finds the program gone (counted failed) and starts it again.
 *   - the child gets a clean signal mask and default dispositions, and no descriptor of the
 *     host but its three standard ones (close_range): a bot must not hold another bot's socket
 *     open, or that bot would never see end-of-file.
 *   - between fork and exec the child does only async-signal-safe calls: the host may have
 *     threads. Everything it needs (argv, envp, the program's path) is built before fork.
 *
 * Isolation: works in-process and under isolation = process (the program is then the worker's
 * child). Under sandbox = on it cannot work — the sandbox forbids fork, exec and all I/O but the
 * worker's own socket, by design — and the plugin says so on stderr once.
 *
 * No mutable globals: everything lives in the instance (one per table seat).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cardbot/bot.h"
#include "cardbot/game.h"
#include "cardbot/json.h"

enum { ERR_PREFIX, ERR_INHERIT, ERR_DISCARD, ERR_FILE };
#define BACKOFF_MAX 32u  /* most decisions skipped before another start */
#define EBUF 2048        /* a stderr line longer than this is copied in pieces */

typedef struct exec_bot {
    /* configuration */
    char **argv;        /* the command, split */
    char *path;         /* argv[0] resolved, absolute when wd is set (PATH search done
                         * before fork) */
    char *wd;           /* the program's working directory, absolute: cwd, else config_dir;
                         * NULL: the host's (a host that gives no config_dir and no cwd) */
    char **envp;        /* the program's whole environment */
    int err_mode;
    char *err_path;     /* ERR_FILE */
    unsigned start_ms;
    bool log;
    char label[64];     /* how messages name the program: its hello name, else argv[0]'s base */
    /* the running program (pid 0: none) */
    pid_t pid;
    int sock;           /* our end of the socketpair, non-blocking */
    int errfd;          /* ERR_PREFIX: read end of its stderr pipe, non-blocking; else -1 */
    bool hello_done;
    uint64_t hello_at;  /* when the hello answer was read */
    uint64_t started_ns;
    char *rbuf;         /* bytes read from the program, not yet consumed */
    size_t rlen;
    size_t line_used;   /* bytes of rbuf the line read_line returned takes, '\n' included */
    char ebuf[EBUF];    /* a partial stderr line */
    size_t elen;
    char last_err[200]; /* ERR_PREFIX: the last non-blank line it wrote on stderr, for the
                         * message when it dies before answering hello */
    int64_t seq;        /* request ids */
    /* failures and back-off */
    unsigned fails;     /* consecutive failed decisions */
    unsigned skip;      /* decisions to answer with an error before the next start */
    bool warned_noise, warned_sandbox;
} exec_bot;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void say(const exec_bot *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void say(const exec_bot *b, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one write: lines of several bots do not interleave mid-line */
    char line[600];
    int n = snprintf(line, sizeof line, "cardbot exec[%s]: %s\n", b->label, msg);
    if (n > 0)
        (void)!write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- stderr lines ---- */

static void emit_err_line(exec_bot *b, const char *text, size_t n)
{
    size_t k = n;
    while (k && g_ascii_isspace(text[k - 1]))
        k--;
    if (k) /* a start-up failure's reason is its last words (a traceback's last line) */
        snprintf(b->last_err, sizeof b->last_err, "%.*s", (int)MIN(k, sizeof b->last_err - 1), text);
    char head[96];
    int h = snprintf(head, sizeof head, "[exec %s %ld] ", b->label, (long)b->pid);
    GString *s = g_string_sized_new((gsize)h + n + 1);
    g_string_append_len(s, head, h);
    g_string_append_len(s, text, (gssize)n);
    g_string_append_c(s, '\n');
    (void)!write(2, s->str, s->len);
    g_string_free(s, TRUE);
}

/* Copy what the program wrote on stderr, line by line with the prefix. flush: also a last
 * partial line (the program is gone). */
static void drain_stderr(exec_bot *b, bool flush)
{
    if (b->errfd < 0)
        return;
    for (;;) {
        ssize_t n = read(b->errfd, b->ebuf + b->elen, sizeof b->ebuf - b->elen);
        if (n > 0) {
            b->elen += (size_t)n;
            size_t start = 0;
            for (size_t i = 0; i < b->elen; i++)
                if (b->ebuf[i] == '\n') {
                    emit_err_line(b, b->ebuf + start, i - start);
                    start = i + 1;
                }
            if (start == 0 && b->elen == sizeof b->ebuf) { /* a very long line: in pieces */
                emit_err_line(b, b->ebuf, b->elen);
                start = b->elen;
            }
            memmove(b->ebuf, b->ebuf + start, b->elen - start);
            b->elen -= start;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            /* end of file: the program and its children closed stderr */
            close(b->errfd);
            b->errfd = -1;
            flush = true;
        }
        break;
    }
    if (flush && b->elen) {
        emit_err_line(b, b->ebuf, b->elen);
        b->elen = 0;
    }
}

/* ---- starting and stopping ---- */

/* Kill the program and its process group, reap it; describe how it ended in why. */
static void stop(exec_bot *b, bool grace, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (b->sock >= 0) {
        close(b->sock); /* end of file on its stdin: a polite bot exits now */
        b->sock = -1;
    }
    if (b->pid > 0) {
        int ws = 0;
        pid_t r = 0;
        bool ours = false; /* the SIGKILL that ended it was ours: nothing to report */
        if (grace) {
            for (int i = 0; i < 20 && r == 0; i++) { /* up to 100 ms to exit by itself */
                r = waitpid(b->pid, &ws, WNOHANG);
                if (r == 0) {
                    struct timespec ts = {0, 5000000};
                    nanosleep(&ts, NULL);
                }
            }
        } else {
            r = waitpid(b->pid, &ws, WNOHANG);
        }
        kill(-b->pid, SIGKILL); /* its group: what it started goes with it */
        if (r == 0) {
            ours = true;
            kill(b->pid, SIGKILL);
            while ((r = waitpid(b->pid, &ws, 0)) < 0 && errno == EINTR)
                ;
        }
        if (r == b->pid && why && whylen) {
            if (WIFEXITED(ws))
                snprintf(why, whylen, "exited with status %d", WEXITSTATUS(ws));
            else if (WIFSIGNALED(ws) && !(ours && WTERMSIG(ws) == SIGKILL))
                snprintf(why, whylen, "killed by signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
        }
        drain_stderr(b, true); /* before pid is forgotten: its lines name it */
        b->pid = 0;
    }
    drain_stderr(b, true);
    if (b->errfd >= 0) {
        close(b->errfd);
        b->errfd = -1;
    }
    b->rlen = 0;
    b->elen = 0;
    b->hello_done = false;
}

/* A path as the program sees it: relative ones from its working directory wd (absolute;
 * NULL: the host's, the path kept as it is). */
static char *from_wd(const char *wd, const char *path)
{
    return wd && !g_path_is_absolute(path) ? g_build_filename(wd, path, NULL) : g_strdup(path);
}

/* The file of PROGRAM: as given when it has a '/' (relative: from the program's working
 * directory wd), else the first executable along PATH (a relative entry of PATH: from wd
 * too, as it would be after the chdir). */
static char *resolve(const char *prog, char **envp, const char *wd)
{
    if (strchr(prog, '/')) {
        /* checked here, where the message can reach the config's error, not after fork */
        char *full = from_wd(wd, prog);
        if (access(full, X_OK) == 0 && !g_file_test(full, G_FILE_TEST_IS_DIR))
            return full;
        g_free(full);
        return NULL;
    }
    const char *path = g_environ_getenv(envp, "PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char **dirs = g_strsplit(path, ":", -1);
    char *found = NULL;
    for (char **d = dirs; *d && !found; d++) {
        char *dir = from_wd(wd, **d ? *d : ".");
        char *f = g_build_filename(dir, prog, NULL);
        g_free(dir);
        if (access(f, X_OK) == 0 && !g_file_test(f, G_FILE_TEST_IS_DIR))
            found = f;
        else
            g_free(f);
    }
    g_strfreev(dirs);
    return found;
}

/* A message from the child between fork and exec: write(2) only. */
static void child_fail(const char *what, const char *arg)
{
    const char *e = strerror(errno); /* not async-signal-safe in theory; glibc's is a table read */
    const char *parts[] = {"cardbot exec: ", what, " ", arg, ": ", e, "\n"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        (void)!write(2, parts[i], strlen(parts[i]));
    _exit(127);
}

/* Start the program and send hello (its answer is read by await_hello). 0, or -1 with why. */
static int spawn(exec_bot *b, char *why, size_t whylen)
{
    int sv[2] = {-1, -1}, ep[2] = {-1, -1}, errto = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, whylen, "socketpair: %s", strerror(errno));
        return -1;
    }
    if (b->err_mode == ERR_PREFIX && pipe2(ep, O_CLOEXEC) != 0) {
        snprintf(why, whylen, "pipe: %s", strerror(errno));
        goto fail;
    }
    if (b->err_mode == ERR_DISCARD)
        errto = open("/dev/null", O_WRONLY | O_CLOEXEC);
    else if (b->err_mode == ERR_FILE)
        errto = open(b->err_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    else if (b->err_mode == ERR_PREFIX)
        errto = ep[1];
    if (b->err_mode != ERR_INHERIT && errto < 0) {
        snprintf(why, whylen, "stderr %s: %s", b->err_path ? b->err_path : "/dev/null", strerror(errno));
        goto fail;
    }
    struct rlimit rl;
    int maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536
                    ? (int)rl.rlim_cur : 65536;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* the child: async-signal-safe calls only */
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 || (errto >= 0 && dup2(errto, 2) < 0))
            child_fail("dup2", "");
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) /* the host died before the line above: do not outlive it */
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        for (int s = 1; s < NSIG; s++)
            if (s != SIGKILL && s != SIGSTOP)
                sigaction(s, &dfl, NULL); /* an ignored SIGPIPE or SIGINT would outlive exec */
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
            for (int fd = 3; fd < maxfd; fd++)
                close(fd);
        if (b->wd && chdir(b->wd) != 0)
            child_fail("cwd", b->wd);
        execve(b->path, b->argv, b->envp);
        child_fail("cannot run", b->path);
    }
    setpgid(pid, pid); /* also here: no window where a kill of the group misses it */
    close(sv[1]);
    if (ep[1] >= 0)
        close(ep[1]);
    if (b->err_mode == ERR_DISCARD || b->err_mode == ERR_FILE)
        close(errto);
    b->pid = pid;
    b->sock = sv[0];
    b->errfd = ep[0];
    fcntl(b->sock, F_SETFL, fcntl(b->sock, F_GETFL) | O_NONBLOCK);
    if (b->errfd >= 0)
        fcntl(b->errfd, F_SETFL, fcntl(b->errfd, F_GETFL) | O_NONBLOCK);
    b->rlen = 0;
    b->elen = 0;
    b->last_err[0] = '\0';
    b->hello_done = false;
    b->started_ns = now_ns();
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0)
            close(sv[i]);
        if (ep[i] >= 0)
            close(ep[i]);
    }
    if (errto >= 0 && errto != ep[1] && b->err_mode != ERR_PREFIX)
        close(errto);
    return -1;
}

/* ---- lines ---- */

/* Write all of text then '\n' by the deadline. 0, or -1 with why. */
static int send_line(exec_bot *b, const char *text, uint64_t deadline, char *why, size_t whylen)
{
    size_t len = strlen(text);
    char *msg = g_malloc(len + 1);
    memcpy(msg, text, len);
    msg[len] = '\n';
    size_t off = 0;
    int rc = 0;
    while (off < len + 1) {
        ssize_t n = send(b->sock, msg + off, len + 1 - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            uint64_t t = now_ns();
            if (t >= deadline) {
                snprintf(why, whylen, "the program did not read its input in time");
                rc = -1;
                break;
            }
            struct pollfd p[2] = {{b->sock, POLLOUT, 0}, {b->errfd, POLLIN, 0}};
            poll(p, b->errfd >= 0 ? 2 : 1, (int)((deadline - t) / 1000000u) + 1);
            if (b->errfd >= 0 && p[1].revents)
                drain_stderr(b, false);
            continue;
        }
        snprintf(why, whylen, "writing to the program: %s", strerror(errno));
        if (errno == EPERM && !b->warned_sandbox) {
            b->warned_sandbox = true;
            say(b, "the process sandbox (sandbox = on) forbids the exec strategy's I/O: set "
                   "sandbox = off for exec strategies");
        }
        rc = -1;
        break;
    }
    g_free(msg);
    return rc;
}

/* How read_line failed: the caller words a dead program and a slow one differently. */
enum { RL_ERROR = -1, RL_TIMEOUT = -2, RL_CLOSED = -3 };

/* Read one line (without '\n', NUL-terminated into *line, valid until the next read) by the
 * deadline. 0, or with why: RL_TIMEOUT; RL_CLOSED (end of file, or the connection reset: the
 * program exited, or closed its stdout); RL_ERROR (an overlong line, another read error). */
static int read_line(exec_bot *b, uint64_t deadline, char **line, size_t *len, char *why, size_t whylen)
{
    for (;;) {
        char *nl = b->rlen ? memchr(b->rbuf, '\n', b->rlen) : NULL;
        if (nl) {
            *nl = '\0';
            b->line_used = (size_t)(nl - b->rbuf) + 1;
            *line = b->rbuf;
            *len = (size_t)(nl - b->rbuf);
            if (*len && b->rbuf[*len - 1] == '\r') /* a CRLF bot: forgive the CR */
                b->rbuf[--*len] = '\0';
            return 0;
        }
        if (b->rlen > CB_JSON_MAX_LINE) {
            snprintf(why, whylen, "a line longer than %d bytes", CB_JSON_MAX_LINE);
            return RL_ERROR;
        }
        uint64_t t = now_ns();
        if (t >= deadline) {
            snprintf(why, whylen, "no answer in time");
            return RL_TIMEOUT;
        }
        struct pollfd p[2] = {{b->sock, POLLIN, 0}, {b->errfd, POLLIN, 0}};
        int pr = poll(p, b->errfd >= 0 ? 2 : 1, (int)((deadline - t + 999999u) / 1000000u));
        if (pr < 0 && errno != EINTR) {
            snprintf(why, whylen, "poll: %s", strerror(errno));
            return RL_ERROR;
        }
        if (b->errfd >= 0 && p[1].revents)
            drain_stderr(b, false);
        if (!p[0].revents)
            continue;
        ssize_t n = recv(b->sock, b->rbuf + b->rlen, CB_JSON_MAX_LINE + 2 - b->rlen, 0);
        if (n > 0) {
            b->rlen += (size_t)n;
            continue;
        }
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        int e = errno;
        if (n == 0)
            snprintf(why, whylen, "the program closed its output");
        else if (e == ECONNRESET) /* closed too, with our request unread: which one the host meets is a race */
            snprintf(why, whylen, "the program closed its output, our request unread");
        else
            snprintf(why, whylen, "reading from the program: %s", strerror(e));
        if (n < 0 && e == EPERM && !b->warned_sandbox) {
            b->warned_sandbox = true;
            say(b, "the process sandbox (sandbox = on) forbids the exec strategy's I/O: set "
                   "sandbox = off for exec strategies");
        }
        /* a reset: it exited with our hello unread in its input */
        return n == 0 || e == ECONNRESET ? RL_CLOSED : RL_ERROR;
    }
}

/* Drop the line read_line returned. */
static void consume_line(exec_bot *b)
{
    size_t used = b->line_used;
    memmove(b->rbuf, b->rbuf + used, b->rlen - used);
    b->rlen -= used;
}

/* Discard what the program wrote unasked (before a request): answers are only read for one. */
static void discard_unasked(exec_bot *b)
{
    size_t dropped = b->rlen;
    b->rlen = 0;
    for (;;) {
        char tmp[4096];
        ssize_t n = recv(b->sock, tmp, sizeof tmp, MSG_DONTWAIT);
        if (n > 0) {
            dropped += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        break; /* nothing more now; an end of file shows when the answer is read */
    }
    if (dropped && !b->warned_noise) {
        b->warned_noise = true;
        say(b, "ignored %zu bytes written on stdout unasked (stdout is for answers; write "
               "diagnostics on stderr); said once", dropped);
    }
}

/* "the program exited with status 2 before answering hello", and the last line it wrote on
 * stderr when it is known (stderr = prefix): a program that cannot start says why there —
 * a missing script, a module not found, a bad option. */
static void died_early(const exec_bot *b, const char *how, const char *before, char *why, size_t whylen)
{
    if (b->last_err[0])
        snprintf(why, whylen, "the program %s before %s; the last line it wrote on stderr: %s", how,
                 before, b->last_err);
    else
        snprintf(why, whylen, "the program %s before %s", how, before);
}

/* Wait for the hello answer of a started program until started + start_ms. What happened
 * comes first: a program that died at once is no timeout, however long start_ms is. */
static int await_hello(exec_bot *b, char *why, size_t whylen)
{
    if (b->hello_done)
        return 0;
    uint64_t deadline = b->started_ns + (uint64_t)b->start_ms * 1000000u;
    char *line;
    size_t len;
    char sub[200];
    int rc = read_line(b, deadline, &line, &len, sub, sizeof sub);
    if (rc != 0) {
        char how[96];
        /* its output closed: it is exiting, let it finish (100 ms) so its status is its own */
        stop(b, rc == RL_CLOSED, how, sizeof how);
        if (rc == RL_TIMEOUT)
            snprintf(why, whylen, "no hello answer within start_ms = %u ms (the program %s)", b->start_ms,
                     how[0] ? how : "was still running: stopped");
        else if (how[0])
            died_early(b, how, "answering hello", why, whylen);
        else if (rc == RL_CLOSED)
            snprintf(why, whylen, "the program closed its output before answering hello (stopped)");
        else
            snprintf(why, whylen, "reading its hello answer: %s (stopped)", sub);
        return -1;
    }
    char name[48], version[32], perr[256];
    if (cb_json_hello_answer_parse(line, len, name, sizeof name, version, sizeof version, perr, sizeof perr) != 0) {
        snprintf(why, whylen, "bad hello answer: %s", perr);
        stop(b, false, NULL, 0);
        return -1;
    }
    consume_line(b);
    if (name[0])
        snprintf(b->label, sizeof b->label, "%s", name);
    b->hello_done = true;
    b->hello_at = now_ns();
    return 0;
}

/* Start the program and send hello; its answer is read at the next decision (await_hello),
 * so a restart's start-up time overlaps the other seats' decisions. */
static int start(exec_bot *b, char *why, size_t whylen)
{
    if (spawn(b, why, whylen) != 0)
        return -1;
    char *hello = cb_json_hello_format("cardbot", cb_version());
    int rc = send_line(b, hello, b->started_ns + (uint64_t)b->start_ms * 1000000u, why, whylen);
    cb_json_free(hello);
    if (rc != 0) {
        char how[96];
        stop(b, true, how, sizeof how);
        if (how[0])
            died_early(b, how, "reading hello", why, whylen);
        return -1;
    }
    return 0;
}

/* A running program that has answered hello, or -1 (why says what failed). */
static int ready(exec_bot *b, char *why, size_t whylen)
{
    if (b->pid <= 0 && start(b, why, whylen) != 0)
        return -1;
    return await_hello(b, why, whylen);
}

/* Start again now unless backing off (a failed start is retried at the next decision). */
static void restart(exec_bot *b)
{
    char why[400];
    if (b->skip == 0 && b->pid <= 0 && start(b, why, sizeof why) != 0 && b->log)
        say(b, "restart failed: %s", why);
}

/* ---- create / destroy ---- */

static void exec_destroy(void *inst)
{
    exec_bot *b = inst;
    if (!b)
        return;
    stop(b, true, NULL, 0);
    g_strfreev(b->argv);
    g_strfreev(b->envp);
    g_free(b->path);
    g_free(b->wd);
    g_free(b->err_path);
    g_free(b->rbuf);
    g_free(b);
}

static void *exec_create(const cb_param *params, int nparams, char *err, size_t errlen)
{
    exec_bot *b = g_new0(exec_bot, 1);
    b->sock = b->errfd = -1;
    b->start_ms = 10000;
    b->log = true;
    b->envp = g_get_environ();
    b->rbuf = g_malloc(CB_JSON_MAX_LINE + 2);
    const char *command = NULL, *cwd = NULL, *config_dir = NULL;
    for (int i = 0; i < nparams; i++) {
        const char *k = params[i].key ? params[i].key : "";
        const char *v = params[i].value ? params[i].value : "";
        GError *e = NULL;
        if (strcmp(k, "command") == 0) {
            command = v;
            g_strfreev(b->argv);
            b->argv = NULL;
            if (!g_shell_parse_argv(v, NULL, &b->argv, &e)) {
                set_err(err, errlen, "exec: command: %s", e->message);
                g_error_free(e);
                goto fail;
            }
        } else if (strcmp(k, "cwd") == 0) {
            if (!*v) {
                set_err(err, errlen, "exec: cwd: empty (a directory; relative: to the config file's)");
                goto fail;
            }
            cwd = v; /* checked below: config_dir, which it may be relative to, comes last */
        } else if (strcmp(k, "config_dir") == 0) {
            /* the host's (the cardbot shim passes it after the config's own keys) */
            if (config_dir) {
                set_err(err, errlen, "exec: config_dir: given twice; the shim sets it to the config "
                        "file's directory: do not write it in the config (cwd sets the program's)");
                goto fail;
            }
            config_dir = v;
        } else if (strcmp(k, "env") == 0) {
            char **kv = NULL;
            if (*v && !g_shell_parse_argv(v, NULL, &kv, &e)) {
                set_err(err, errlen, "exec: env: %s", e->message);
                g_error_free(e);
                goto fail;
            }
            for (char **p = kv; p && *p; p++) {
                char *eq = strchr(*p, '=');
                if (!eq || eq == *p) {
                    set_err(err, errlen, "exec: env: '%s' is not KEY=VALUE", *p);
                    g_strfreev(kv);
                    goto fail;
                }
                *eq = '\0';
                b->envp = g_environ_setenv(b->envp, *p, eq + 1, TRUE);
            }
            g_strfreev(kv);
        } else if (strcmp(k, "stderr") == 0) {
            g_free(b->err_path);
            b->err_path = NULL;
            if (strcmp(v, "prefix") == 0)
                b->err_mode = ERR_PREFIX;
            else if (strcmp(v, "inherit") == 0)
                b->err_mode = ERR_INHERIT;
            else if (strcmp(v, "discard") == 0)
                b->err_mode = ERR_DISCARD;
            else if (*v) {
                b->err_mode = ERR_FILE;
                b->err_path = g_strdup(v);
            } else {
                set_err(err, errlen, "exec: stderr: empty (prefix, inherit, discard or a file)");
                goto fail;
            }
        } else if (strcmp(k, "start_ms") == 0) {
            char *end = NULL;
            unsigned long x = strtoul(v, &end, 10);
            if (!*v || *v == '-' || *end || x < 1 || x > 600000) {
                set_err(err, errlen, "exec: start_ms: '%s' is not 1..600000", v);
                goto fail;
            }
            b->start_ms = (unsigned)x;
        } else if (strcmp(k, "log") == 0) {
            if (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
                b->log = true;
            else if (!strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
                b->log = false;
            else {
                set_err(err, errlen, "exec: log: '%s' is not on or off", v);
                goto fail;
            }
        } else {
            set_err(err, errlen, "exec: unknown parameter '%s' (known: command, cwd, env, stderr, start_ms, log)", k);
            goto fail;
        }
    }
    /* the one rule for relative paths: from the config file's directory (config_dir), as the
     * shim's plugin_dir; cwd, when given, moves the program (and what it opens) elsewhere */
    if (config_dir && !*config_dir)
        config_dir = NULL;
    if (cwd || config_dir) {
        /* absolute: the child's chdir and its execve of b->path must agree */
        char *base = config_dir ? g_canonicalize_filename(config_dir, NULL) : NULL;
        b->wd = g_canonicalize_filename(cwd ? cwd : config_dir, base);
        g_free(base);
        if (!g_file_test(b->wd, G_FILE_TEST_IS_DIR)) {
            if (!cwd)
                set_err(err, errlen, "exec: config_dir: '%s' is not a directory", config_dir);
            else if (g_path_is_absolute(cwd) || !config_dir)
                set_err(err, errlen, "exec: cwd: '%s' is not a directory", cwd);
            else
                set_err(err, errlen, "exec: cwd: '%s' is not a directory (%s: relative paths are the "
                        "config file's directory's)", cwd, b->wd);
            goto fail;
        }
    }
    if (b->err_mode == ERR_FILE && config_dir && !g_path_is_absolute(b->err_path)) {
        char *f = g_build_filename(config_dir, b->err_path, NULL);
        g_free(b->err_path);
        b->err_path = f;
    }
    if (!command || !b->argv || !b->argv[0]) {
        set_err(err, errlen, "exec: command: missing (the program to run, e.g. command = python3 bot.py)");
        goto fail;
    }
    b->path = resolve(b->argv[0], b->envp, b->wd);
    if (!b->path) {
        if (!strchr(b->argv[0], '/'))
            set_err(err, errlen, "exec: command: '%s' not found along PATH", b->argv[0]);
        else if (b->wd && !g_path_is_absolute(b->argv[0]))
            set_err(err, errlen, "exec: command: '%s' is not an executable file (relative to %s, the "
                    "program's working directory)", b->argv[0], b->wd);
        else
            set_err(err, errlen, "exec: command: '%s' is not an executable file", b->argv[0]);
        goto fail;
    }
    char *base = g_path_get_basename(b->argv[0]);
    snprintf(b->label, sizeof b->label, "%s", base);
    g_free(base);
    char why[400];
    if (ready(b, why, sizeof why) != 0) {
        set_err(err, errlen, "exec: command '%s': %s", command, why);
        goto fail;
    }
    return b;
fail:
    exec_destroy(b);
    return NULL;
}

/* ---- decisions ---- */

/* The first decision of a game at this seat (the shim's rule for its own back-off): a bid view
 * where nobody has bid, or a play view with an empty history. */
static bool new_game(const cb_view *v)
{
    if (v->phase == CB_PHASE_PLAY)
        return v->nhistory == 0;
    for (int s = 0; s < v->nseats && s < CB_MAX_SEATS; s++)
        if (v->bids[s] != -1)
            return false;
    return true;
}

/* A failed decision: stop the program; start again at the next decision, or after a
 * back-off when it keeps failing. */
static int failed(exec_bot *b, const char *what)
{
    char how[96] = "";
    if (b->pid > 0)
        stop(b, false, how, sizeof how);
    b->fails++;
    unsigned shift = b->fails < 2 ? 0 : b->fails - 2;
    b->skip = b->fails < 2 ? 0 : (shift >= 5 ? BACKOFF_MAX : 1u << shift);
    if (b->log)
        say(b, "decision failed: %s%s%s", what, how[0] ? "; the program " : "", how);
    restart(b);
    return -1;
}

static int decide(exec_bot *b, const cb_view *v, cb_decision *out)
{
    uint64_t t0 = now_ns();
    if (!b || !v || !out || !v->rules)
        return -1;
    if (new_game(v)) {
        b->fails = 0;
        b->skip = 0;
    }
    if (b->pid <= 0 && b->skip > 0) {
        b->skip--;
        restart(b); /* the last decision of the back-off starts it for the next */
        return -1;  /* backing off: the fallback answers */
    }
    char why[400];
    if (ready(b, why, sizeof why) != 0)
        return failed(b, why);
    char perr[300];
    char *req = cb_json_request_format(v, ++b->seq, perr, sizeof perr);
    if (!req) {
        snprintf(why, sizeof why, "cannot write the request: %s", perr);
        return failed(b, why); /* the view, not the program: still counted, never crashes */
    }
    /* The program's budget runs from its request: a restarted program's start-up (awaited
     * above, up to start_ms) is ours, not its — such a decision may come late (the shim
     * counts it), but the program is never cut short for it. */
    uint64_t t1 = now_ns();
    uint64_t deadline = (b->hello_at > t0 ? t1 : t0) + (uint64_t)v->budget_ms * 1000000u;
    discard_unasked(b);
    int rc = send_line(b, req, deadline, why, sizeof why);
    cb_json_free(req);
    if (rc != 0)
        return failed(b, why);
    for (;;) {
        char *line;
        size_t len;
        int rl = read_line(b, deadline, &line, &len, why, sizeof why);
        if (rl == RL_TIMEOUT) { /* the budget is the timeout's reason: not said of the others */
            char full[460];
            snprintf(full, sizeof full, "%s (budget %u ms)", why, (unsigned)v->budget_ms);
            return failed(b, full);
        }
        if (rl != 0)
            return failed(b, why);
        int64_t id = -1;
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = out->struct_size;
        if (cb_json_answer_parse(line, len, v, &d, &id, perr, sizeof perr) != 0) {
            char shown[80];
            snprintf(shown, sizeof shown, "%.*s%s", (int)(len < 60 ? len : 60), line, len > 60 ? "..." : "");
            snprintf(why, sizeof why, "bad answer %s: %s", shown, perr);
            return failed(b, why);
        }
        consume_line(b);
        if (id >= 0 && id != b->seq)
            continue; /* an answer to an older request: stale */
        uint32_t keep = out->struct_size;
        size_t size = keep == 0 || keep > sizeof d ? sizeof d : keep;
        memcpy(out, &d, size);
        out->struct_size = keep;
        b->fails = 0;
        return 0;
    }
}

static int exec_decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    return v && v->phase == CB_PHASE_BID ? decide(inst, v, out) : -1;
}

static int exec_decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    return v && v->phase == CB_PHASE_PLAY ? decide(inst, v, out) : -1;
}

static const cb_bot exec_bot_table = {
    .abi_version = CB_ABI_VERSION,
    .struct_size = sizeof(cb_bot),
    .name = "exec",
    .version = "1.0",
    .create = exec_create,
    .destroy = exec_destroy,
    .decide_bid = exec_decide_bid,
    .decide_play = exec_decide_play,
};

__attribute__((visibility("default"))) const cb_bot *cb_plugin_entry(void);
const cb_bot *cb_plugin_entry(void)
{
    return &exec_bot_table;
}
