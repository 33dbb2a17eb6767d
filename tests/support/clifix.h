/* cardbot tests — the fixture of the tests that run the cardbot command (test_match.c,
 * test_console.c, test_match_cli.c): the build directory, one temp dir for the run, and
 * running cardbot with its output captured. Spawn failures fail the running cmocka test. */
#ifndef CBT_CLIFIX_H
#define CBT_CLIFIX_H

/* $CB_BUILD, else build/plain. */
const char *cbt_build_dir(void);

/* A game count for a test that plays matches: n in the plain build, a third of it (at least 6)
 * in the sanitizer builds (build dir named *asan*), which run some 10x slower: those look for
 * memory errors on the same code paths, and the plain build keeps the full counts. */
int cbt_games(int n);

/* A path in the run's temp dir (made on first use, prefix names it: "cbmatch" makes
 * cbmatch-XXXXXX); g_free it. Called from the test's main thread only. */
char *cbt_tmp_path(const char *prefix, const char *name);
/* Remove the temp dir and the files in it (no subdirectories). */
void cbt_tmp_remove(void);

/* Run <build>/cardbot with the arguments (NULL-terminated); stdout and stderr captured, each
 * returned newly allocated when out / err is not NULL. The exit status, or 128 + signal. */
int cbt_cardbot(char **out, char **err, const char *first, ...) __attribute__((sentinel));

#endif
