/* Test plugin "deploy", build 2: deploy1.c with DEPLOY_VARIANT 2 (see there). */
#define DEPLOY_VARIANT 2
#include "deploy1.c"
