# The `oauth` gem 0.5.4 (Debian's ruby-oauth) signs one Net::HTTP request as AccessToken#request
# does (Net::HTTPGenericRequest#oauth!, its request proxy reading the query and the form body).
# Prints the request as sent, as one JSON object.
# Usage: ruby ruby_oauth.rb METHOD URL [FORM_BODY] [HMAC-SHA1|HMAC-SHA256]
require 'json'
require 'net/http'
require 'oauth'
require 'oauth/client/net_http'

method, url, body, signature_method = ARGV
signature_method ||= 'HMAC-SHA1'
uri = URI.parse(url)
consumer = OAuth::Consumer.new('ck', 'cs secret', site: "#{uri.scheme}://#{uri.host}:#{uri.port}",
                               signature_method: signature_method)
token = OAuth::AccessToken.new(consumer, 'tk', 'ts secret')
request = Net::HTTPGenericRequest.new(method, !body.nil? && !body.empty?, true, uri.request_uri)
if body && !body.empty?
  request.content_type = 'application/x-www-form-urlencoded'
  request.body = body
end
http = Net::HTTP.new(uri.host, uri.port)
http.use_ssl = uri.scheme == 'https'
request.oauth!(http, consumer, token, signature_method: signature_method)
puts JSON.generate(url: url, authorization: request['Authorization'],
                   body: (body && !body.empty?) ? body : nil)
