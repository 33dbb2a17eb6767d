/* cardbot shim — how a value of a config file is read (internal: the shim and the console).
 *
 * One rule for every reader of a cardbot config, so that the shim, the console's [match]
 * group and the replay header read the same text the same way: GKeyFile's escapes applied,
 * then the blanks (spaces, tabs) written at the end of the line dropped. GKeyFile drops a
 * value's leading blanks but keeps its trailing ones, so "0 = bomber " would name a strategy
 * 'bomber ' that nobody can see in the file; no value of ours or of a plugin means anything by
 * them. Only blanks written as such go: a value that really ends in a blank writes it as \s or
 * \t, which survives (counted on the raw value, where an escaped blank still is a backslash
 * and a letter).
 *
 * Configs are loaded with CB_CONF_KEYFILE_FLAGS: a translated key (level[zh]) is kept as a key
 * of its own name whatever the user's locale (without the flag GKeyFile keeps it only under a
 * matching LANG, so one file would load differently on two machines). */
#ifndef CARDBOT_CONF_VALUE_H
#define CARDBOT_CONF_VALUE_H

#include <glib.h>

#define CB_CONF_KEYFILE_FLAGS G_KEY_FILE_KEEP_TRANSLATIONS

/* The value of group/key as above, to g_free; NULL with *error set when there is none or
 * GKeyFile cannot read it (not UTF-8; a bad escape such as \x, for which g_key_file_get_string
 * returns the raw text and an error): never taken as written. */
char *cb_conf_value(GKeyFile *kf, const char *group, const char *key, GError **error);

#endif
