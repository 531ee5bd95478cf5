/* benchmarks/cdp_regx_inputs.c — inputs of cdp-regx (see cdp_inputs.h): the
 * signature set, its anchored DFA, and the two string collections of the
 * LaPerm seed's Table II (DARPA network packets, random strings).  The
 * DARPA 1999 traces are not available here; the generator below is shaped
 * like their TCP payloads (many short control and keystroke packets, a tail
 * of MTU-sized data packets, protocol text with embedded commands). */
#include "benchmarks/cdp_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Intrusion-detection style literal signatures: the expression is their
 * alternation. */
static const char *const signatures[] = {
    "GET /",   "POST ",    "/bin/sh", "cmd.exe", "/etc/passwd", "USER root",
    "PASS ",   "%2e%2e/",  "<script", "SELECT ", "wget ",       "../",
};
#define NSIG (int)(sizeof signatures / sizeof signatures[0])

int cdp_regx_nsignatures(void) { return NSIG; }
const char *cdp_regx_signature(int i) { return signatures[i]; }

bool cdp_regx_dfa_make(cdp_regx_dfa *d)
{
    int cap = 1;
    for (int i = 0; i < NSIG; i++)
        cap += (int)strlen(signatures[i]);
    d->next = malloc((size_t)cap * 256 * sizeof(int));
    d->out = calloc((size_t)cap, sizeof(int));
    if (!d->next || !d->out)
        return false;
    memset(d->next, 0xff, (size_t)cap * 256 * sizeof(int)); /* -1: dead */
    d->nstates = 1;
    for (int i = 0; i < NSIG; i++) {
        int st = 0;
        for (const unsigned char *c = (const unsigned char *)signatures[i]; *c; c++) {
            int *nx = &d->next[st * 256 + *c];
            if (*nx < 0)
                *nx = d->nstates++;
            st = *nx;
        }
        d->out[st]++;
    }
    for (int b = 0; b < 256; b++)
        d->first[b] = d->next[b] >= 0;
    return true;
}

void cdp_regx_dfa_free(cdp_regx_dfa *d)
{
    free(d->next);
    free(d->out);
    d->next = d->out = NULL;
}

int cdp_regx_count(cdp_regx_kind kind, bench_size size)
{
    (void)kind;
    return size == BENCH_TINY ? 2048 : size == BENCH_SMALL ? 8192 : 262144;
}

const char *cdp_regx_name(cdp_regx_kind kind)
{
    return kind == CDP_REGX_DARPA ? "darpa" : "string";
}

/* Packet payload length: half short (1-64 B: keystrokes, acks with data,
 * control replies), 30% medium (65-576 B), 20% long (577-1460 B, up to
 * the Ethernet MSS). */
static int darpa_length(uint64_t *rng)
{
    uint32_t r = (uint32_t)(bench_rng_next(rng) % 100u);
    uint64_t x = bench_rng_next(rng);
    if (r < 50)
        return 1 + (int)(x % 64u);
    if (r < 80)
        return 65 + (int)(x % 512u);
    return 577 + (int)(x % 884u);
}

/* Protocol text of the traces' services (HTTP, SMTP, FTP, telnet). */
static const char *const tokens[] = {
    "GET /index.html HTTP/1.0\r\n", "Host: www.example.mil\r\n", "Accept: */*\r\n",
    "User-Agent: Mozilla/4.0\r\n", "HTTP/1.0 200 OK\r\n", "Content-Length: 1024\r\n",
    "220 mail ESMTP ready\r\n", "MAIL FROM:<user@host>\r\n", "RCPT TO:<admin@host>\r\n",
    "250 OK\r\n", "USER anonymous\r\n", "PASS guest\r\n", "ls -l\r\n", "cd /home/user\r\n",
    "cat /etc/passwd\r\n", "POST /cgi-bin/form HTTP/1.0\r\n", "USER root\r\n",
    "the ", "data ", "file ", "report ", "mail ", "login ", "ok ", "\r\n",
};
#define NTOK (int)(sizeof tokens / sizeof tokens[0])

static void darpa_fill(unsigned char *s, int len, uint64_t *rng)
{
    int i = 0;
    bool binary = bench_rng_next(rng) % 8u == 0; /* 1 in 8: binary transfer */
    while (i < len) {
        if (binary) {
            s[i++] = (unsigned char)bench_rng_next(rng);
            continue;
        }
        const char *t = tokens[bench_rng_next(rng) % (uint64_t)NTOK];
        for (; *t && i < len; t++)
            s[i++] = (unsigned char)*t;
    }
}

bool cdp_strings_make(cdp_strings *c, cdp_regx_kind kind, bench_size size, uint64_t seed,
                      char *err)
{
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 0x5e6 + (uint64_t)kind;
    int n = cdp_regx_count(kind, size);
    c->n = n;
    c->off = malloc(((size_t)n + 1) * sizeof(int));
    c->text = NULL;
    if (!c->off)
        goto fail;
    c->off[0] = 0;
    for (int i = 0; i < n; i++) {
        /* random strings: 16-512 characters, uniform */
        int len = kind == CDP_REGX_DARPA ? darpa_length(&rng)
                                         : 16 + (int)(bench_rng_next(&rng) % 497u);
        c->off[i + 1] = c->off[i] + len;
    }
    c->text = malloc((size_t)c->off[n] + 1);
    if (!c->text)
        goto fail;
    for (int i = 0; i < n; i++) {
        unsigned char *s = c->text + c->off[i];
        int len = c->off[i + 1] - c->off[i];
        if (kind == CDP_REGX_DARPA)
            darpa_fill(s, len, &rng);
        else /* printable ASCII, uniform */
            for (int k = 0; k < len; k++)
                s[k] = (unsigned char)(32 + bench_rng_next(&rng) % 95u);
    }
    return true;
fail:
    snprintf(err, 256, "host allocation failed (%d strings)", n);
    cdp_strings_free(c);
    return false;
}

void cdp_strings_free(cdp_strings *c)
{
    free(c->off);
    free(c->text);
    c->off = NULL;
    c->text = NULL;
}
