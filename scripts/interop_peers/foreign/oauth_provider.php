<?php
// A provider on PHP's pecl OAuth 2.0.7 (OAuthProvider), as a router for PHP's built-in server
// (`php -S 127.0.0.1:PORT oauth_provider.php`): it checks every request's signature, timestamp,
// nonce and token with checkOAuthRequest() and answers 200 with a JSON description of what it
// verified (the parameters PHP read, the body), or 401 with OAuthProvider's problem.
// Credentials: consumer "plain-consumer" / "plain-secret" with token "plain-token" /
// "plain-token-secret", whose secrets have nothing to percent-encode; and "php-consumer" /
// "consumer secret & ünïcode" with "php-token" / "token secret / +%", whose secrets do:
// OAuthProvider makes its HMAC key of the secrets as they are, not percent-encoded
// (key-secrets-not-encoded), so it refuses an RFC 5849 signature made with these.
// A nonce is accepted once per consumer, timestamp and nonce.
$consumers = ['php-consumer' => 'consumer secret & ünïcode', 'plain-consumer' => 'plain-secret'];
$tokens = ['php-token' => 'token secret / +%', 'plain-token' => 'plain-token-secret'];
$nonces = sys_get_temp_dir() . '/oauth1-php-provider-nonces-' . getmypid();

header('Content-Type: application/json');
try {
    $provider = new OAuthProvider();
    $provider->consumerHandler(function ($p) use ($consumers) {
        if (!isset($consumers[$p->consumer_key])) {
            return OAUTH_CONSUMER_KEY_UNKNOWN;
        }
        $p->consumer_secret = $consumers[$p->consumer_key];
        return OAUTH_OK;
    });
    $provider->tokenHandler(function ($p) use ($tokens) {
        if (!isset($tokens[$p->token])) {
            return OAUTH_TOKEN_REJECTED;
        }
        $p->token_secret = $tokens[$p->token];
        return OAUTH_OK;
    });
    $provider->timestampNonceHandler(function ($p) use ($nonces) {
        if (abs(time() - (int) $p->timestamp) > 300) {
            return OAUTH_BAD_TIMESTAMP;
        }
        $seen = is_file($nonces) ? file($nonces, FILE_IGNORE_NEW_LINES) : [];
        $key = $p->consumer_key . ' ' . $p->timestamp . ' ' . $p->nonce;
        if (in_array($key, $seen, true)) {
            return OAUTH_BAD_NONCE;
        }
        file_put_contents($nonces, $key . "\n", FILE_APPEND | LOCK_EX);
        return OAUTH_OK;
    });
    $provider->checkOAuthRequest();
    echo json_encode([
        'consumer_key' => $provider->consumer_key,
        'token' => $provider->token,
        'signature_method' => $provider->signature_method,
        'query' => $_GET,
        'form' => $_POST,
    ], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
} catch (OAuthException $e) {
    http_response_code(401);
    echo json_encode(['problem' => OAuthProvider::reportProblem($e, false),
                      'message' => $e->getMessage()], JSON_UNESCAPED_SLASHES), "\n";
}
