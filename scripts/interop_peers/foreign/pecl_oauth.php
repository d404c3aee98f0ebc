<?php
// PHP's pecl OAuth extension 2.0.7 (Debian's php-oauth) makes the header of one request with
// OAuth::getRequestHeader(method, URL, form fields), as an application calls it before sending
// the request itself. Prints the request as sent, as one JSON object.
// Usage: php pecl_oauth.php METHOD URL [FORM_BODY] [HMAC-SHA1|HMAC-SHA256]
[$script, $method, $url] = $argv;
$body = $argv[3] ?? '';
$signature_method = $argv[4] ?? 'HMAC-SHA1';
$methods = ['HMAC-SHA1' => OAUTH_SIG_METHOD_HMACSHA1, 'HMAC-SHA256' => OAUTH_SIG_METHOD_HMACSHA256];
$oauth = new OAuth('ck', 'cs secret', $methods[$signature_method], OAUTH_AUTH_TYPE_AUTHORIZATION);
$oauth->setToken('tk', 'ts secret');
// The form's fields as an application holds them: parsed as PHP parses a body.
$form = null;
if ($body !== '') {
    parse_str($body, $form);
}
$header = $oauth->getRequestHeader($method, $url, $form ?? '');
echo json_encode(['url' => $url, 'authorization' => $header, 'body' => $body !== '' ? $body : null],
                 JSON_UNESCAPED_SLASHES), "\n";
