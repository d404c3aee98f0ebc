/* liboauth 1.0.3 (Debian's liboauth0) signs one request with oauth_sign_url2, as its examples
 * do: a GET's parameters go in the URL it returns; a POST's form fields are given in the URL's
 * query, and liboauth returns them, the query's and the protocol parameters in the body it
 * gives back. Prints the request as sent, as one JSON object (the strings are ASCII).
 * liboauth signs with HMAC-SHA1, RSA-SHA1 and PLAINTEXT only.
 * Usage: liboauth METHOD URL [FORM_BODY] [HMAC-SHA1] */
#include <stddef.h> /* oauth.h uses size_t without it */
#include <oauth.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: liboauth METHOD URL [FORM_BODY]\n");
        return 2;
    }
    const char *method = argv[1], *url = argv[2];
    const char *body = argc > 3 ? argv[3] : "";
    const OAuthMethod how = OA_HMAC;
    if (*body == '\0') {
        char *signed_url = oauth_sign_url2(url, NULL, how, method, "ck", "cs secret", "tk", "ts secret");
        if (!signed_url) return 1;
        printf("{\"url\":");
        print_json_string(signed_url);
        printf(",\"authorization\":null,\"body\":null}\n");
        free(signed_url);
        return 0;
    }
    size_t n = strlen(url) + strlen(body) + 2;
    char *with_fields = malloc(n);
    snprintf(with_fields, n, "%s%c%s", url, strchr(url, '?') ? '&' : '?', body);
    char *postargs = NULL;
    char *signed_url = oauth_sign_url2(with_fields, &postargs, how, method, "ck", "cs secret", "tk", "ts secret");
    if (!signed_url || !postargs) return 1;
    printf("{\"url\":");
    print_json_string(signed_url);
    printf(",\"authorization\":null,\"body\":");
    print_json_string(postargs);
    printf("}\n");
    free(signed_url);
    free(postargs);
    free(with_fields);
    return 0;
}
