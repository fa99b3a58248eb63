#include "opt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    if (*s == '\0' || strchr(" \t\n", *s) != NULL)
        return -1;
    double v = strtod(s, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_long(const char *s, double min, double max, long *out)
{
    char *end;
    errno = 0;
    if (*s == '\0' || strchr(" \t\n+", *s) != NULL)
        return -1;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || (double)v < min || (double)v > max)
        return -1;
    *out = v;
    return 0;
}

static void range_text(const cli_option *o, char *buf, size_t cap)
{
    if (o->type == CLI_DOUBLE)
        if (o->max >= 1e300) /* no upper bound but finiteness */
            snprintf(buf, cap, "a finite number >= %g", o->min);
        else
            snprintf(buf, cap, "a number in [%g, %g]", o->min, o->max);
    else
        snprintf(buf, cap, "an integer in %.0f..%.0f", o->min, o->max);
}

static int set_value(const cli_command *cmd, const cli_option *o, const char *arg)
{
    char what[96];
    switch (o->type) {
    case CLI_FLAG: *(int *)o->dest = 1; return 0;
    case CLI_STRING: *(const char **)o->dest = arg; return 0;
    case CLI_DOUBLE:
        if (cli_parse_double(arg, o->min, o->max, (double *)o->dest) == 0)
            return 0;
        break;
    case CLI_INT:
        if (cli_parse_long(arg, o->min, o->max, (long *)o->dest) == 0)
            return 0;
        break;
    case CLI_SIZE: {
        long v;
        if (cli_parse_long(arg, o->min, o->max, &v) == 0) {
            *(size_t *)o->dest = (size_t)v;
            return 0;
        }
        break;
    }
    }
    range_text(o, what, sizeof what);
    cli_error("option '--%s': expected %s, got '%s'", o->name, what, arg);
    cli_hint(cmd);
    return 2;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, char **pos, int *npos)
{
    int np = 0, only_pos = 0;
    cli_current = cmd;
    cli_inputs = (const char *const *)pos;
    cli_ninputs = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == '\0' || a[1] == ':') { /* "-", "-:GROUP": standard input */
            if (np >= cmd->npos_max)
                return cli_extra_argument(cmd, pos, np, a) == KPCA_EUSAGE ? 2 : 3;
            pos[np++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cli_print_help(cmd, stdout);
            return 1;
        }
        const cli_option *o = NULL;
        const char *inline_arg = NULL;
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (size_t j = 0; j < cmd->noptions; j++)
                if (strlen(cmd->options[j].name) == len && strncmp(cmd->options[j].name, name, len) == 0)
                    o = &cmd->options[j];
            if (o != NULL && eq != NULL)
                inline_arg = eq + 1;
        } else {
            for (size_t j = 0; j < cmd->noptions; j++)
                if (cmd->options[j].short_name == a[1])
                    o = &cmd->options[j];
            if (o != NULL && a[2] != '\0') {
                if (o->arg == NULL)
                    o = NULL; /* no bundling of flags */
                else
                    inline_arg = a + 2;
            }
        }
        if (o == NULL) {
            cli_error("unknown option '%s'", a);
            cli_hint(cmd);
            return 2;
        }
        if (o->arg == NULL) {
            if (inline_arg != NULL) {
                cli_error("option '--%s' takes no value", o->name);
                cli_hint(cmd);
                return 2;
            }
            set_value(cmd, o, NULL);
            continue;
        }
        if (inline_arg == NULL) {
            if (i + 1 >= argc) {
                cli_error("option '--%s' needs a value (%s)", o->name, o->arg);
                cli_hint(cmd);
                return 2;
            }
            inline_arg = argv[++i];
        }
        if (set_value(cmd, o, inline_arg) != 0)
            return 2;
    }
    if (np < cmd->npos_min) {
        /* name the first missing positional argument from the synopsis */
        char missing[32];
        cli_synopsis_arg(cmd, (size_t)np, missing, sizeof missing);
        cli_error("missing argument%s%s: usage: kpca %s %s", missing[0] ? " " : "", missing, cmd->name,
                  cmd->synopsis);
        cli_hint(cmd);
        return 2;
    }
    *npos = np;
    cli_ninputs = (size_t)np;
    return 0;
}

void cli_synopsis_arg(const cli_command *cmd, size_t i, char *buf, size_t cap)
{
    size_t seen = 0;
    buf[0] = '\0';
    for (const char *t = cmd->synopsis; *t;) {
        while (*t == ' ')
            t++;
        size_t len = strcspn(t, " ");
        if (len > 0 && t[0] != '[' && seen++ == i && len < cap)
            snprintf(buf, cap, "%.*s", (int)len, t);
        t += len;
    }
}

void cli_print_help(const cli_command *cmd, FILE *fp)
{
    fprintf(fp, "usage: kpca %s %s\n\n%s\n", cmd->name, cmd->synopsis, cmd->summary);
    if (cmd->details != NULL)
        fprintf(fp, "\n%s\n", cmd->details);
    fprintf(fp, "\n%s\n", CLI_STREAMS_HELP);
    fprintf(fp, "\noptions:\n");
    for (size_t j = 0; j < cmd->noptions; j++) {
        const cli_option *o = &cmd->options[j];
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(fp, "  %-26s %s\n", left, o->help);
    }
    fprintf(fp, "  %-26s %s\n", "-h, --help", "show this help and exit");
}
