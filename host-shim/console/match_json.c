/* cardbot console — what the JSON-lines writers share (match_json.h). */
#include "match_json.h"

char *cb_match_json_finish(JsonBuilder *b)
{
    json_builder_end_object(b);
    JsonGenerator *gen = json_generator_new();
    JsonNode *root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    char *text = json_generator_to_data(gen, NULL); /* not pretty: one line */
    json_node_unref(root);
    g_object_unref(gen);
    g_object_unref(b);
    return text;
}

void cb_match_json_str(JsonBuilder *b, const char *key, const char *v)
{
    json_builder_set_member_name(b, key);
    if (!v) {
        json_builder_add_null_value(b);
        return;
    }
    char *valid = g_utf8_make_valid(v, -1);
    json_builder_add_string_value(b, valid);
    g_free(valid);
}

void cb_match_json_int(JsonBuilder *b, const char *key, gint64 v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, v);
}

void cb_match_json_bool(JsonBuilder *b, const char *key, gboolean v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_boolean_value(b, v);
}
