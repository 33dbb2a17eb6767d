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
