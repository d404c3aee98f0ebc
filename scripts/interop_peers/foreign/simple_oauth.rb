# simple_oauth 0.3.1 (Debian's ruby-simple-oauth) makes the header of one request as its README
# shows: SimpleOAuth::Header.new(method, url, form fields, credentials). Prints the request as
# sent, as one JSON object.
# Usage: ruby simple_oauth.rb METHOD URL [FORM_BODY] [HMAC-SHA1]
require 'json'
require 'simple_oauth'
require 'uri'

method, url, body = ARGV
# The form's fields as an application holds them: a Hash, decoded.
form = body && !body.empty? ? URI.decode_www_form(body).to_h : {}
header = SimpleOAuth::Header.new(method, url, form,
                                 consumer_key: 'ck', consumer_secret: 'cs secret',
                                 token: 'tk', token_secret: 'ts secret')
puts JSON.generate(url: url, authorization: header.to_s, body: (body && !body.empty?) ? body : nil)
