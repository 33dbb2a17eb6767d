/* cardbot — the cardbot-1 JSON-lines protocol: views, requests and answers as JSON.
 *
 * One codec, in libcardbot (core/view_json.c, json-glib inside), shared by the exec strategy
 * (plugin/exec: a bot in any language as a child program), `cardbot serve` (our strategies
 * for hosts that do not link C) and any C host that wants to talk to such bots. Plain C: no
 * glib type crosses this header, so it binds through an FFI like shim.h.
 *
 * The protocol (README "Bots in any language" has it with examples). Each message is one JSON
 * object on one line (UTF-8, '\n'-terminated, no line breaks inside), host to bot on the
 * bot's stdin, bot to host on its stdout:
 *
 *   host: {"type":"hello","protocol":"cardbot-1","host":"cardbot","version":"1.1.0"}
 *   bot:  {"protocol":"cardbot-1","name":"pybot","version":"0.1"}
 *   host: {"type":"bid"|"play","id":7,"view":{...}}
 *   bot:  {"bid":1} | {"play":"3s3h4c"} | {"play":"pass"}  (+ "explain", "value", "id", ...)
 *
 * The view object mirrors cb_view (bot.h has the contract, member by member):
 *   "rules": {"preset":"pdk16", ...flags that differ from the preset, by cb_rules_keys name:
 *             booleans as true/false, numbers as numbers, short_triple "last"|"always"|"never",
 *             four_with "none"|"2"|"3"|"both"},
 *   "seat", "nseats", "first_seat", "first_bidder", "landlord", "table_seat": integers,
 *   "hand", "bottom", "table": card text with suits ("3s3h4dXD"; "" = no cards),
 *   "cards_left", "bombs", "bids": arrays of nseats integers,
 *   "history": [{"seat":0,"play":"3s4s5s6h7c"},{"seat":1,"play":"pass"},...],
 *   "budget_ms": integer, "seed": decimal string (a uint64 does not fit every JSON reader),
 *   "legal_bids": the bids allowed now (bid requests only; derived, ignored when read).
 * Readers ignore members they do not know (later protocol minors may add some) — except
 * inside "rules", where an unknown flag is refused: rules a reader does not understand are
 * rules it would get wrong. Writers always write every member above. A pass is "pass" (or
 * "") in "play" members.
 *
 * Errors: every reader returns -1 (or NULL) with a message that starts with the member's path
 * ("view.history[3].play: ...", "bid: expected an integer", "view.rules.must_beat: ...").
 * Strings returned by the formatters are allocated: free them with cb_json_free.
 */
#ifndef CARDBOT_JSON_H
#define CARDBOT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "bot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The protocol this library speaks; a hello with another protocol is refused. */
#define CB_JSON_PROTOCOL "cardbot-1"
/* Longest line the readers accept (bytes, without the newline): a real view is under 4 KiB. */
#define CB_JSON_MAX_LINE 65536

/* Request kinds: a hello or a decision (the cb_phase values). */
enum { CB_JSON_HELLO = 0, CB_JSON_BID = CB_PHASE_BID, CB_JSON_PLAY = CB_PHASE_PLAY };

void cb_json_free(char *text);

/* ---- host side: writing requests, reading answers ---- */

/* {"type":"hello","protocol":"cardbot-1","host":HOST,"version":VERSION} (NULLs: "cardbot" and
 * this library's version). */
char *cb_json_hello_format(const char *host, const char *version);
/* A bid or play request for v (its phase gives "type"); id >= 0 is written as "id", < 0
 * leaves it out. NULL with the reason in err when v cannot be written (NULL rules, a phase
 * that is neither, rules that differ from their preset in a member no flag names, more seats
 * than CB_MAX_SEATS). The view is written as it is: check it first (cb_view_check) if it
 * comes from an untrusted source. */
char *cb_json_request_format(const cb_view *v, int64_t id, char *err, size_t errlen);
/* The bot's answer to hello: 0 and its name and version (cut to fit; "" when absent), or -1:
 * not JSON, no "protocol", or another protocol than CB_JSON_PROTOCOL (named in err). */
int cb_json_hello_answer_parse(const char *line, size_t len, char *name, size_t namelen,
                               char *version, size_t versionlen, char *err, size_t errlen);
/* A bot's answer to the request for v. Fills out (out->struct_size is respected as the shim's
 * are: 0 = the 1.0 size; members beyond it are not written): "bid" (bid requests) or "play"
 * (play requests: card text, "pass" or ""), and the optional "explain" (cut to fit, at a
 * UTF-8 boundary), "value" (number; NAN when absent), "simulations", "nodes",
 * "minhands_before", "minhands_after" (-1 when absent) and "flags" (names as written by
 * cb_json_answer_format; unknown names ignored, "fallback" ignored: only a host sets it).
 * Play cards are read against the deck and then matched to v->hand by rank, so "33344"
 * names the hand's cards; a card the hand does not hold is kept as written (the shim then
 * refuses the play as not in hand). *id gets "id" (-1 when absent; may be NULL). Returns 0,
 * or -1 with the member named in err ("play: bad card character 'Z' at position 3",
 * "bid: missing", "(line): not JSON at line 1 column 7: ..."). */
int cb_json_answer_parse(const char *line, size_t len, const cb_view *v, cb_decision *out,
                         int64_t *id, char *err, size_t errlen);

/* ---- bot side: reading requests, writing answers ---- */

typedef struct cb_json_request cb_json_request; /* opaque */

/* Read one request line. NULL with the member named in err ("view.cards_left[2]: expected an
 * integer", "type: 'deal' is not hello, bid or play"). The view is read as written, not
 * checked: cb_view_check (or the shim, which checks every view) says whether a game reaches
 * it. */
cb_json_request *cb_json_request_parse(const char *line, size_t len, char *err, size_t errlen);
void cb_json_request_free(cb_json_request *q);
int cb_json_request_kind(const cb_json_request *q);      /* CB_JSON_* */
int64_t cb_json_request_id(const cb_json_request *q);    /* "id", -1 when absent */
/* (1.3.0) The "id" of a line as cb_json_request_parse reads it (an integer 0..INT64_MAX of a JSON
 * object on one line of at most CB_JSON_MAX_LINE bytes), whether or not the rest of the line is
 * a request it accepts; -1 when there is none. For the error answer to a refused line: a host
 * pairs answers with requests by id. */
int64_t cb_json_line_id(const char *line, size_t len);
/* Hello: the protocol the host named (never NULL). */
const char *cb_json_request_protocol(const cb_json_request *q);
/* Bid / play: the view (struct_size = sizeof(cb_view) of this library; rules and history point
 * into q), valid while q lives; NULL for a hello. */
const cb_view *cb_json_request_view(const cb_json_request *q);

/* {"protocol":"cardbot-1","name":NAME,"version":VERSION} */
char *cb_json_hello_answer_format(const char *name, const char *version);
/* The answer to a request of kind `kind` (CB_JSON_BID / CB_JSON_PLAY): "bid" or "play" (card
 * text with suits, "pass"), then "explain" (when not empty; made valid UTF-8), "value" (when
 * finite), "simulations" and "nodes" (when not 0), "minhands_before" / "minhands_after"
 * (when >= 0), "flags" (names: bomb, endgame, counted, suboptimal, fallback; when any),
 * "fallback" (when not NULL: why a host's fallback answered) and "id" (when >= 0). NULL for a
 * bad kind. d->struct_size 0 is read as the 1.0 size (members beyond it are not read). */
char *cb_json_answer_format(int kind, const cb_decision *d, const char *fallback, int64_t id);
/* {"error":MESSAGE} (+ "id" when >= 0): how `cardbot serve` answers a line it cannot serve. */
char *cb_json_error_format(const char *message, int64_t id);

#ifdef __cplusplus
}
#endif
#endif
