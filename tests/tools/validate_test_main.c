/* tests/tools/validate_test_main.c — `ptxemu validate` built with the
 * test-only corrupting policy (-DPTXEMU_VALIDATE_TEST_POLICY=OFFSET, see
 * tools/cmd_validate.c); used by test_validate.sh only. */
#include "tools/commands.h"

#include <string.h>

/* Called as `ptxemu_validate_test validate ARGS...`, like the real program. */
int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "validate"))
        return cmd_validate(argc - 1, argv + 1);
    return cmd_validate(argc, argv);
}
