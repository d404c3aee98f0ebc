//! Which `Host` a request may name: `oauth1 serve` answers only for itself, so that a web page
//! that rebinds its own name to this machine's address (DNS rebinding) cannot read its answers
//! (the consumer keys it knows, the authorization page and its anti-forgery token).

use std::net::{IpAddr, SocketAddr};

use hyper::header::{HeaderMap, HOST};
use url::Url;

/// Whether the request's one `Host` names this server: a loopback name (`localhost`, a
/// `127.x.y.z` address, `[::1]`) or the address it listens on, with the port it listens on, as a
/// client on this machine reaches it; or the origin clients sign for (`--origin`), as a proxy in
/// front of it passes it on. Otherwise what to say of the `Host` sent.
pub(super) fn check(
    headers: &HeaderMap,
    listening: SocketAddr,
    origin: &Url,
) -> Result<(), String> {
    let mut hosts = headers.get_all(HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return Err("none, or more than one: send one Host header".to_owned());
    };
    let shown = || crate::terminal::bytes(host.as_bytes());
    let authority = host
        .to_str()
        .ok()
        .and_then(|h| h.parse::<hyper::http::uri::Authority>().ok())
        .ok_or_else(shown)?;
    let name = authority.host();
    let name = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    let default_port = if origin.scheme() == "https" { 443 } else { 80 };
    let port = authority.port_u16();
    let direct = port.unwrap_or(80) == listening.port()
        && (name.eq_ignore_ascii_case("localhost")
            || name
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback() || ip == listening.ip()));
    let public = origin.host_str().is_some_and(|h| {
        h.trim_start_matches('[')
            .trim_end_matches(']')
            .eq_ignore_ascii_case(name)
    }) && port.unwrap_or(default_port)
        == origin.port_or_known_default().unwrap_or(default_port);
    if direct || public {
        Ok(())
    } else {
        Err(shown())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_host(hosts: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for host in hosts {
            headers.append(HOST, host.parse().unwrap());
        }
        headers
    }

    #[test]
    fn a_host_is_this_server_by_a_loopback_name_its_address_or_its_origin() {
        let listening: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let own = Url::parse("http://127.0.0.1:8080").unwrap();
        let public = Url::parse("https://api.test").unwrap();
        for (host, origin, ok) in [
            ("127.0.0.1:8080", &own, true),
            ("localhost:8080", &own, true),
            ("LocalHost:8080", &own, true),
            ("127.0.0.2:8080", &own, true),
            ("[::1]:8080", &own, true),
            // Another port, or none (80), is another server.
            ("localhost:8081", &own, false),
            ("localhost", &own, false),
            // A name rebound to this address names itself.
            ("evil.example:8080", &own, false),
            ("evil.example", &own, false),
            ("10.0.0.1:8080", &own, false),
            // The public origin, as a proxy in front passes it on, and still the loopback names.
            ("api.test", &public, true),
            ("API.test:443", &public, true),
            ("api.test:8443", &public, false),
            ("127.0.0.1:8080", &public, true),
            ("evil.example", &public, false),
        ] {
            let checked = check(&with_host(&[host]), listening, origin);
            assert_eq!(checked.is_ok(), ok, "{host} for {origin}: {checked:?}");
        }
        // Listening on every interface: its own loopback names; a LAN address only as --origin.
        let everywhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert!(check(&with_host(&["localhost:8080"]), everywhere, &own).is_ok());
        assert!(check(&with_host(&["192.168.1.5:8080"]), everywhere, &own).is_err());
        let lan = Url::parse("http://192.168.1.5:8080").unwrap();
        assert!(check(&with_host(&["192.168.1.5:8080"]), everywhere, &lan).is_ok());
        // No Host, two, or one that is no authority.
        assert!(check(&with_host(&[]), listening, &own).is_err());
        assert!(check(
            &with_host(&["127.0.0.1:8080", "127.0.0.1:8080"]),
            listening,
            &own
        )
        .is_err());
        assert!(check(&with_host(&["a b"]), listening, &own).is_err());
    }
}
