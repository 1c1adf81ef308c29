//! IP network functions: `cidrhost`, `cidrnetmask`, `cidrsubnet`, `cidrsubnets`, `cidrcontains`, for IPv4 and
//! IPv6, on `u128` arithmetic. Subnet allocation in `cidrsubnets` follows go-cidr's `NextSubnet` exactly.

use super::api::s;
use super::api::{FnCtx, FnResult, Func, P, arg_err, err, f, fv, p};
use super::numeric::{int_arg, num};
use crate::types::Type;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

pub static FUNCS: &[Func] = &[
    f("cidrhost", &[p("prefix", P::Str), p("hostnum", P::Num)], cidrhost),
    f("cidrnetmask", &[p("prefix", P::Str)], cidrnetmask),
    f("cidrsubnet", &[p("prefix", P::Str), p("newbits", P::Num), p("netnum", P::Num)], cidrsubnet),
    fv("cidrsubnets", &[p("prefix", P::Str)], p("newbits", P::Num), cidrsubnets),
    f("cidrcontains", &[p("containing_prefix", P::Str), p("contained_ip_or_prefix", P::Str)], cidrcontains),
];

#[derive(Clone, Copy)]
struct Net {
    addr: u128,
    len: u32,
    width: u32,
}

impl Net {
    fn mask(len: u32, width: u32) -> u128 {
        let full = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
        if len == 0 { 0 } else { full & !full.checked_shr(len).unwrap_or(0) }
    }
    fn full(&self) -> u128 {
        Net::mask(self.width, self.width)
    }
    fn start(&self) -> u128 {
        self.addr & Net::mask(self.len, self.width)
    }
    fn last(&self) -> u128 {
        self.start() | (self.full() & !Net::mask(self.len, self.width))
    }
    fn contains(&self, ip: u128) -> bool {
        ip & Net::mask(self.len, self.width) == self.start()
    }
}

fn parse_ip(text: &str) -> Option<(u128, u32)> {
    match text.parse::<IpAddr>().ok()? {
        IpAddr::V4(a) => Some((u32::from(a) as u128, 32)),
        IpAddr::V6(a) => Some((u128::from(a), 128)),
    }
}

fn parse_cidr(text: &str, idx: usize) -> Result<Net, super::FnError> {
    let bad = || arg_err(idx, format!("invalid CIDR expression: {text:?}"));
    let Some((ip, len)) = text.split_once('/') else { return bad() };
    let Some((addr, width)) = parse_ip(ip) else { return bad() };
    let Ok(len) = len.parse::<u32>() else { return bad() };
    if len > width {
        return bad();
    }
    Ok(Net { addr: addr & Net::mask(len, width), len, width })
}

fn ip_text(addr: u128, width: u32) -> String {
    if width == 32 { Ipv4Addr::from(addr as u32).to_string() } else { Ipv6Addr::from(addr).to_string() }
}

fn cidrhost(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let net = parse_cidr(s(&a[0]), 0)?;
    let host = num(&a[1]).to_bigint().ok_or_else(|| super::FnError::Arg(1, "hostnum must be a whole number".into()))?;
    let hostbits = net.width - net.len;
    let max = BigInt::from(1u8) << hostbits;
    let h = if host < BigInt::from(0) { &max + &host } else { host.clone() };
    if h < BigInt::from(0) || h >= max {
        return err(format!("prefix of {} does not accommodate a host numbered {host}", net.len));
    }
    let h = h.to_u128().unwrap_or(0);
    Ok(Value::string(ip_text(net.start() | h, net.width)))
}

fn cidrnetmask(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let net = parse_cidr(s(&a[0]), 0)?;
    if net.width != 32 {
        return err("IPv6 addresses cannot have a netmask");
    }
    Ok(Value::string(ip_text(Net::mask(net.len, 32), 32)))
}

fn subnet(net: Net, newbits: i64, netnum: &BigInt) -> Result<Net, super::FnError> {
    if newbits < 0 {
        return err("newbits must be non-negative");
    }
    let newlen = net.len as i64 + newbits;
    if newlen > net.width as i64 {
        return err(format!("insufficient address space to extend prefix of {} by {newbits}", net.len));
    }
    let newlen = newlen as u32;
    let max = BigInt::from(1u8) << newbits as u32;
    if *netnum < BigInt::from(0) || *netnum >= max {
        return err(format!("prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"));
    }
    let n = netnum.to_u128().unwrap_or(0);
    let shift = net.width - newlen;
    let addr = net.start() | if shift >= 128 { 0 } else { n << shift };
    Ok(Net { addr, len: newlen, width: net.width })
}

fn cidrsubnet(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let net = parse_cidr(s(&a[0]), 0)?;
    let newbits = int_arg(&a[1], 1)?;
    let netnum =
        num(&a[2]).to_bigint().ok_or_else(|| super::FnError::Arg(2, "netnum must be a whole number".into()))?;
    let sub = subnet(net, newbits, &netnum)?;
    Ok(Value::string(format!("{}/{}", ip_text(sub.start(), sub.width), sub.len)))
}

fn cidrsubnets(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let net = parse_cidr(s(&a[0]), 0)?;
    let bits: Vec<i64> = a[1..].iter().enumerate().map(|(i, v)| int_arg(v, i + 1)).collect::<Result<_, _>>()?;
    cx.check_len(bits.len())?;
    let Some(&first) = bits.first() else { return Ok(Value::list(Type::String, Vec::new())) };
    let full = net.full();
    let check = |b: i64, i: usize| -> Result<u32, super::FnError> {
        if b < 1 || net.len as i64 + b > net.width as i64 {
            return arg_err(
                i + 1,
                format!(
                    "would extend prefix to {} bits, which is too long for an IPv{} address",
                    net.len as i64 + b,
                    if net.width == 32 { 4 } else { 6 }
                ),
            );
        }
        Ok(net.len + b as u32)
    };
    // go-cidr: start from the subnet just before the network, then take NextSubnet for each length.
    let first_len = check(first, 0)?;
    let prev = net.start().wrapping_sub(1) & full;
    let mut current = Net { addr: prev & Net::mask(first_len, net.width), len: first_len, width: net.width };
    let mut out = Vec::new();
    for (i, &b) in bits.iter().enumerate() {
        let newlen = check(b, i)?;
        let masked = Net { addr: current.last() & Net::mask(newlen, net.width), len: newlen, width: net.width };
        let after = masked.last().wrapping_add(1) & full;
        let next = Net { addr: after & Net::mask(newlen, net.width), len: newlen, width: net.width };
        if after == 0 || !net.contains(next.start()) || !net.contains(next.last()) {
            return err(format!(
                "not enough remaining address space for a subnet with a prefix of {newlen} bits after {}/{}",
                ip_text(current.start(), net.width),
                current.len
            ));
        }
        out.push(Value::string(format!("{}/{}", ip_text(next.start(), net.width), newlen)));
        current = next;
    }
    Ok(Value::list(Type::String, out))
}

fn cidrcontains(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let net = parse_cidr(s(&a[0]), 0)?;
    let other = s(&a[1]);
    let (start, last, width) = if other.contains('/') {
        let o = parse_cidr(other, 1)?;
        (o.start(), o.last(), o.width)
    } else {
        let Some((ip, w)) = parse_ip(other) else { return arg_err(1, format!("invalid IP address: {other:?}")) };
        (ip, ip, w)
    };
    if width != net.width {
        return err("the address families of the arguments differ");
    }
    Ok(Value::Bool(net.contains(start) && net.contains(last)))
}
