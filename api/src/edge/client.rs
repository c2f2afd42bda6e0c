//! The client's address, for limits per address.
//!
//! By default it is the connection's peer. Behind a reverse proxy or load balancer every peer is
//! the proxy, so `APP_TRUSTED_PROXIES` names the proxies (addresses or CIDR ranges): when the peer
//! is one of them, the client is the right-most address in `X-Forwarded-For` that is not a
//! trusted proxy itself. Addresses a client wrote further left are never believed, so a client
//! cannot choose its own address by sending the header.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::{Extensions, HeaderMap};

/// An address range: an address and the number of leading bits that must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpRange {
    address: IpAddr,
    prefix: u8,
}

impl IpRange {
    pub fn parse(text: &str) -> Result<Self, String> {
        let (address, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let address: IpAddr = address.trim().parse().map_err(|_| format!("{text:?} is not an IP address or CIDR range"))?;
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.trim().parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| format!("{text:?}: prefix must be 0 to {max}"))?,
            None => max,
        };
        Ok(Self { address, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.address, ip) {
            (IpAddr::V4(range), IpAddr::V4(ip)) => prefix_matches(&range.octets(), &ip.octets(), self.prefix),
            (IpAddr::V6(range), IpAddr::V6(ip)) => prefix_matches(&range.octets(), &ip.octets(), self.prefix),
            _ => false,
        }
    }
}

fn prefix_matches(a: &[u8], b: &[u8], bits: u8) -> bool {
    let (whole, rest) = ((bits / 8) as usize, bits % 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        a[whole] & mask == b[whole] & mask
    }
}

/// An IPv4 address seen through an IPv6 socket (`::ffff:10.0.0.1`) as IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// The proxies whose `X-Forwarded-For` is believed (`APP_TRUSTED_PROXIES`); none by default.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpRange>);

impl TrustedProxies {
    pub fn parse(items: &[String]) -> Result<Self, String> {
        items.iter().map(|i| IpRange::parse(i)).collect::<Result<_, _>>().map(Self)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|r| r.contains(ip))
    }

    /// The client of a request that came from `peer` with these headers.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|a| a.trim().parse::<IpAddr>().map(canonical))
            .collect::<Result<_, _>>()
            // a list we cannot read is not believed in part
            .unwrap_or_default();
        forwarded.into_iter().rev().find(|ip| !self.trusts(*ip)).unwrap_or(peer)
    }
}

/// The connection's peer, as the server put it in the request.
pub fn peer(extensions: &Extensions) -> Option<IpAddr> {
    extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", xff.parse().unwrap());
        h
    }

    #[test]
    fn ranges_match_by_prefix() {
        let range = IpRange::parse("10.0.0.0/8").unwrap();
        assert!(range.contains("10.200.1.2".parse().unwrap()));
        assert!(range.contains("::ffff:10.1.1.1".parse().unwrap()));
        assert!(!range.contains("11.0.0.1".parse().unwrap()));
        assert!(IpRange::parse("172.16.0.0/12").unwrap().contains("172.31.255.1".parse().unwrap()));
        assert!(!IpRange::parse("172.16.0.0/12").unwrap().contains("172.32.0.1".parse().unwrap()));
        assert!(IpRange::parse("fd00::/8").unwrap().contains("fd12::1".parse().unwrap()));
        assert!(IpRange::parse("127.0.0.1").unwrap().contains("127.0.0.1".parse().unwrap()));
        assert!(IpRange::parse("10.0.0.0/33").is_err() && IpRange::parse("proxy").is_err());
    }

    #[test]
    fn the_forwarded_address_is_believed_only_from_a_trusted_proxy() {
        let none = TrustedProxies::default();
        let peer: IpAddr = "10.0.0.5".parse().unwrap();
        assert_eq!(none.client(peer, &headers("203.0.113.9")), peer);
        let proxies = TrustedProxies::parse(&["10.0.0.0/8".into()]).unwrap();
        assert_eq!(proxies.client(peer, &headers("203.0.113.9")), "203.0.113.9".parse::<IpAddr>().unwrap());
        // a client that writes its own header is found right of what it wrote
        assert_eq!(proxies.client(peer, &headers("1.2.3.4, 203.0.113.9, 10.0.0.7")), "203.0.113.9".parse::<IpAddr>().unwrap());
        assert_eq!(proxies.client(peer, &headers("garbage, 203.0.113.9")), peer);
        assert_eq!(proxies.client(peer, &HeaderMap::new()), peer);
        let outside: IpAddr = "198.51.100.1".parse().unwrap();
        assert_eq!(proxies.client(outside, &headers("203.0.113.9")), outside);
    }
}
