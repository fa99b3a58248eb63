#include "opt.h"

const char *cli_spool_limit;

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/file/source.h"
#include "lib/io/read.h"

const cli_command *cli_current = NULL;

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_verror(fmt, ap);
    va_end(ap);
    if (cli_current != NULL)
        cli_hint(cli_current);
    return KPCA_EUSAGE;
}

void cli_hint(const cli_command *cmd)
{
    if (cli_rank == 0)
        fprintf(stderr, "see 'kpca %s --help'\n", cmd->name);
}

const char *const *cli_inputs = NULL;
size_t cli_ninputs = 0;

/* What each positional argument of the synopses should be. */
static const struct {
    const char *name, *what;
} arg_roles[] = {
    {"MODEL", "a MODEL (written by kpca fit)"},
    {"DATA", "DATA (ESL, LIBSVM, CSV or ARFF text, NumPy .npy or HDF5 data)"},
    {"FEATURES", "FEATURES (written by kpca transform, or data)"},
    {"TRAIN", "TRAIN (features written by kpca transform, or data)"},
    {"TEST", "TEST (features written by kpca transform, or data)"},
};

int cli_arg_role(const char *path, const char **name, const char **what)
{
    int at = -1;
    for (size_t i = 0; i < cli_ninputs && at < 0; i++)
        if (cli_inputs[i] == path)
            at = (int)i;
    for (size_t i = 0; i < cli_ninputs && at < 0; i++)
        if (strcmp(cli_inputs[i], path) == 0)
            at = (int)i;
    if (at < 0 || cli_current == NULL)
        return -1;
    char role[32];
    cli_synopsis_arg(cli_current, (size_t)at, role, sizeof role);
    for (size_t r = 0; r < sizeof arg_roles / sizeof arg_roles[0]; r++)
        if (strcmp(arg_roles[r].name, role) == 0) {
            *name = arg_roles[r].name;
            *what = arg_roles[r].what;
            return at;
        }
    return -1;
}

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

int cli_parse_range(const char *s, double *lo, double *hi)
{
    const char *comma = strchr(s, ',');
    if (comma == NULL || comma - s >= 64)
        return -1;
    char a[64];
    memcpy(a, s, (size_t)(comma - s));
    a[comma - s] = '\0';
    if (cli_parse_double(a, -1e300, 1e300, lo) != 0 || cli_parse_double(comma + 1, -1e300, 1e300, hi) != 0)
        return -1;
    return *lo < *hi ? 0 : -1;
}

int cli_parse_double_list(const char *s, double min, double max, double **out, size_t *n)
{
    size_t count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    double *v = malloc(count * sizeof *v);
    if (v == NULL)
        return -1;
    const char *p = s;
    for (size_t i = 0; i < count; i++) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char buf[64];
        if (len == 0 || len >= sizeof buf) {
            free(v);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (cli_parse_double(buf, min, max, &v[i]) != 0) {
            free(v);
            return -1;
        }
        p += len + 1;
    }
    *out = v;
    *n = count;
    return 0;
}

/* why a list element p[0..len) is not an integer in 1..max ("" when it is
 * one, then in *v) */
static void size_element(const char *p, size_t len, size_t max, size_t *v, char *why, size_t cap)
{
    char *end;
    errno = 0;
    unsigned long long x = isdigit((unsigned char)p[0]) ? strtoull(p, &end, 10) : 0;
    if (p[0] == '-')
        snprintf(why, cap, "'%.*s' is negative", (int)len, p);
    else if (p[0] == '+')
        snprintf(why, cap, "'%.*s' has a sign", (int)len, p);
    else if (!isdigit((unsigned char)p[0]) || end != p + len)
        snprintf(why, cap, "'%.*s' is not a whole number", (int)len, p);
    else if (errno == ERANGE || x > max)
        snprintf(why, cap, "'%.*s' is too large", (int)len, p);
    else if (x == 0)
        snprintf(why, cap, "'%.*s' is not positive", (int)len, p);
    else
        *v = (size_t)x;
}

int cli_parse_size_list(const char *option, const char *s, size_t max, size_t **out, size_t *n)
{
    size_t count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    size_t *v = malloc(count * sizeof *v);
    if (v == NULL) {
        cli_error("option '--%s': out of memory for %zu values", option, count);
        return KPCA_ENOMEM;
    }
    char why[160] = "";
    const char *p = s;
    for (size_t i = 0; i < count && why[0] == '\0'; i++) {
        size_t len = strcspn(p, ",");
        if (len == 0 && count == 1)
            snprintf(why, sizeof why, "the value is empty");
        else if (len == 0)
            snprintf(why, sizeof why, "value %zu of %zu is empty", i + 1, count);
        else
            size_element(p, len, max, &v[i], why, sizeof why);
        p += len + 1;
    }
    if (why[0] != '\0') {
        free(v);
        if (count > 1)
            return cli_usage("option '--%s': '%s': %s (expected a comma-separated list of integers from 1 to %zu)",
                             option, s, why, max);
        return cli_usage("option '--%s': %s (expected an integer from 1 to %zu, or a comma-separated list of them)",
                         option, why, max);
    }
    *out = v;
    *n = count;
    return 0;
}

int cli_parse_precision(const char *s, kpca_precision *out)
{
    if (s == NULL || kpca_precision_parse(s, out) == 0)
        return 0;
    return cli_usage("option '--precision': expected single or double, got '%s'", s);
}

int cli_parse_bytes(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno != 0 || !(v >= 0.0) || s[0] == '-' || s[0] == '+' || isspace((unsigned char)s[0]))
        return -1;
    double mult = 1.0;
    int prefixed = 1;
    switch (*end) {
    case 'K': case 'k': mult = 1024.0; end++; break;
    case 'M': case 'm': mult = 1048576.0; end++; break;
    case 'G': case 'g': mult = 1073741824.0; end++; break;
    case 'T': case 't': mult = 1099511627776.0; end++; break;
    default: prefixed = 0; break;
    }
    /* "iB" only after a prefix (KiB, MiB...); a bare "B" anywhere */
    if (prefixed && *end == 'i' && (end[1] == 'B' || end[1] == 'b'))
        end += 2;
    else if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v * mult >= 18446744073709551615.0)
        return -1;
    /* a positive size below one byte would silently mean "no limit" */
    if (v > 0.0 && v * mult < 1.0)
        return -1;
    *out = (size_t)(v * mult);
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

int cli_extra_argument(const cli_command *cmd, char *const *pos, int np, const char *extra)
{
    char names[96] = "", takes[256], role[32];
    for (int i = 0; i < cmd->npos_max; i++) {
        cli_synopsis_arg(cmd, (size_t)i, role, sizeof role);
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", role);
    }
    snprintf(takes, sizeof takes, "kpca %s takes %s argument%s, %s%s: usage: kpca %s %s", cmd->name,
             cmd->npos_max == 1 ? "one" : cmd->npos_max == 2 ? "two" : "more", cmd->npos_max == 1 ? "" : "s", names,
             strstr(cmd->synopsis, "-o MODEL") != NULL ? "; it writes the model with -o" : "", cmd->name,
             cmd->synopsis);
    /* a model where none belongs: the usual mistake behind an extra argument */
    for (int i = 0; i <= np; i++) {
        const char *arg = i < np ? pos[i] : extra;
        kpca_file_info fi;
        if (kpca_source_is_stream(arg))
            continue; /* sniffing would consume it */
        kpca_file_sniff(arg, &fi);
        if (fi.kind != KPCA_FILE_MODEL)
            continue;
        const char *name = NULL, *what = NULL;
        cli_inputs = (const char *const *)pos;
        cli_ninputs = (size_t)np;
        int at = i < np ? cli_arg_role(arg, &name, &what) : -1;
        cli_ninputs = 0;
        if (at >= 0 && strcmp(name, "MODEL") == 0)
            continue;
        char desc[200];
        kpca_file_describe(&fi, desc, sizeof desc);
        if (at >= 0)
            cli_error("argument %d of %s is %s; '%s' %s; %s", at + 1, cmd->name, what, arg, desc, takes);
        else
            cli_error("unexpected argument '%s', which %s; %s", arg, desc, takes);
        cli_hint(cmd);
        return at >= 0 ? KPCA_EFORMAT : KPCA_EUSAGE;
    }
    cli_error("unexpected argument '%s': %s", extra, takes);
    cli_hint(cmd);
    return KPCA_EUSAGE;
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
