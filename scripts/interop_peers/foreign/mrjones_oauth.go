// github.com/mrjones/oauth (Debian's golang-github-mrjones-oauth-dev, 2017-02-25) signs one
// request as its README shows: the http.Client of Consumer.MakeHttpClient, whose RoundTripper
// reads the query (or the form body), signs and sends. The request is kept where the consumer
// would send it. Prints the request as sent, as one JSON object.
// Usage: mrjones_oauth METHOD URL [FORM_BODY] [HMAC-SHA1|HMAC-SHA256]
package main

import (
	"crypto"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/mrjones/oauth"
)

// keep answers every request with an empty 200 and remembers the last one.
type keep struct{ request *http.Request }

func (k *keep) RoundTrip(r *http.Request) (*http.Response, error) {
	k.request = r
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: mrjones_oauth METHOD URL [FORM_BODY] [HMAC-SHA1|HMAC-SHA256]")
		os.Exit(2)
	}
	method, url, body := os.Args[1], os.Args[2], ""
	if len(os.Args) > 3 {
		body = os.Args[3]
	}
	kept := &keep{}
	consumer := oauth.NewCustomHttpClientConsumer("ck", "cs secret", oauth.ServiceProvider{},
		&http.Client{Transport: kept})
	if len(os.Args) > 4 && os.Args[4] == "HMAC-SHA256" {
		consumer = oauth.NewCustomConsumer("ck", "cs secret", crypto.SHA256, oauth.ServiceProvider{},
			&http.Client{Transport: kept})
	}
	client, err := consumer.MakeHttpClient(&oauth.AccessToken{Token: "tk", Secret: "ts secret"})
	if err != nil {
		panic(err)
	}
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	request, err := http.NewRequest(method, url, reader)
	if err != nil {
		panic(err)
	}
	if body != "" {
		request.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if _, err := client.Do(request); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sent := map[string]interface{}{"url": kept.request.URL.String(),
		"authorization": kept.request.Header.Get("Authorization"), "body": nil}
	if body != "" {
		sent["body"] = body
	}
	out, _ := json.Marshal(sent)
	fmt.Println(string(out))
}
