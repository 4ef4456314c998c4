/* commands.h - the commands of clharness, one file each under cli/, as git's builtin/
 * keeps its own: main.c picks one by name and hands it the command line. */
#ifndef CLH_CLI_COMMANDS_H
#define CLH_CLI_COMMANDS_H

#include "cli/options.h"

extern const struct cli_command cli_devices;
extern const struct cli_command cli_run;
extern const struct cli_command cli_check;
extern const struct cli_command cli_hunt;
extern const struct cli_command cli_catalogue;
extern const struct cli_command cli_grade;
extern const struct cli_command cli_bench;
extern const struct cli_command cli_merge;
extern const struct cli_command cli_capture;
extern const struct cli_command cli_mutate;

#endif
