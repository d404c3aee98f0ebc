#!/usr/bin/perl
# Net::OAuth 0.28 (Debian's libnet-oauth-perl) signs one request as its documentation shows:
# the URL as written in request_url, the form fields as extra_params, the header from
# to_authorization_header. Prints the request as sent, as one JSON object.
# Usage: net_oauth.pl METHOD URL [FORM_BODY] [HMAC-SHA1|HMAC-SHA256]
use strict;
use warnings;
use Net::OAuth;
use JSON::PP;
use URI;
use Encode qw(decode_utf8);
$Net::OAuth::PROTOCOL_VERSION = Net::OAuth::PROTOCOL_VERSION_1_0A;
$Net::OAuth::SKIP_UTF8_DOUBLE_ENCODE_CHECK = 1;

my ($method, $url, $body, $signature_method) = @ARGV;
$signature_method ||= 'HMAC-SHA1';
my %form;
if (defined $body && length $body) {
    # The form's fields as an application holds them: text (decoded from UTF-8), in a hash,
    # so a repeated name's last value.
    my $u = URI->new('http://x/');
    $u->query($body);
    my @pairs = $u->query_form;
    while (my ($k, $v) = splice(@pairs, 0, 2)) { $form{decode_utf8($k)} = decode_utf8($v); }
}
my $request = Net::OAuth->request('protected resource')->new(
    consumer_key => 'ck', consumer_secret => 'cs secret',
    token => 'tk', token_secret => 'ts secret',
    request_url => $url, request_method => $method,
    signature_method => $signature_method,
    timestamp => time, nonce => join('', map { int(rand(10)) } 1 .. 16),
    extra_params => \%form,
);
$request->sign;
print encode_json({ url => $url, authorization => $request->to_authorization_header,
                    body => (defined $body && length $body) ? $body : undef }), "\n";
