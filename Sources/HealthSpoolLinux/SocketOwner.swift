#if canImport(Glibc)
import Glibc
#endif

/// Which user owns a TCP socket on this machine, asked of the kernel (`NETLINK_SOCK_DIAG`, the
/// interface `ss` uses; no privilege needed). The web interface asks it of every connection it
/// accepts (the peer is always a local program: it listens on loopback only), and `healthspool
/// ui` asks it of the listener before it opens a login link there.
public enum SocketOwner {
    /// The owner of the TCP socket whose own end is `local` and whose peer is `remote`
    /// (addresses as dotted quads, or IPv6 text); nil when the kernel knows no such socket.
    public static func uid(local: (String, Int), remote: (String, Int)) -> UInt32? {
        if let src = ipv4(local.0), let dst = ipv4(remote.0) {
            return query(source: src, sourcePort: local.1, destination: dst, destinationPort: remote.1, states: 0xFFF)
        }
        guard let src = ipv6(local.0), let dst = ipv6(remote.0) else { return nil }
        return query(family: UInt8(AF_INET6), source: src, sourcePort: local.1, destination: dst, destinationPort: remote.1, states: 0xFFF)
    }

    /// The 16 bytes of an IPv6 address's text; nil when it is not one.
    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The owner of the IPv4 TCP socket listening on `address`:`port`; nil when nothing listens there.
    public static func listenerUID(address: String, port: Int) -> UInt32? {
        guard let src = ipv4(address) else { return nil }
        // TCP_LISTEN is state 10; a listener's peer is 0.0.0.0:0.
        return query(source: src, sourcePort: port, destination: [0, 0, 0, 0], destinationPort: 0, states: 1 << 10)
    }

    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        return parts.count == 4 ? parts : nil
    }

    /// One `SOCK_DIAG_BY_FAMILY` request for an exact socket id; the answer's `idiag_uid`.
    static func query(family: UInt8 = UInt8(AF_INET), source: [UInt8], sourcePort: Int, destination: [UInt8], destinationPort: Int,
                      states: UInt32) -> UInt32? {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // struct nlmsghdr (16 bytes) + struct inet_diag_req_v2 (56 bytes), laid out by hand:
        // Glibc does not import linux/inet_diag.h.
        var msg = [UInt8](repeating: 0, count: 72)
        func put32(_ v: UInt32, at i: Int) { for k in 0..<4 { msg[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) } }
        put32(72, at: 0)                       // nlmsg_len
        msg[4] = 20                            // nlmsg_type = SOCK_DIAG_BY_FAMILY
        msg[6] = 1                             // nlmsg_flags = NLM_F_REQUEST (one socket, not a dump)
        put32(1, at: 8)                        // nlmsg_seq
        msg[16] = family                       // sdiag_family
        msg[17] = UInt8(IPPROTO_TCP)           // sdiag_protocol
        put32(states, at: 20)                  // idiag_states
        msg[24] = UInt8(sourcePort >> 8); msg[25] = UInt8(sourcePort & 255)            // id.idiag_sport (big-endian)
        msg[26] = UInt8(destinationPort >> 8); msg[27] = UInt8(destinationPort & 255)  // id.idiag_dport
        for k in 0..<source.count { msg[28 + k] = source[k] }                         // id.idiag_src (4 or 16 bytes)
        for k in 0..<destination.count { msg[44 + k] = destination[k] }               // id.idiag_dst
        put32(0xFFFF_FFFF, at: 64); put32(0xFFFF_FFFF, at: 68)                         // id.idiag_cookie = INET_DIAG_NOCOOKIE
        // struct sockaddr_nl (12 bytes: family, pad, pid 0 = the kernel, groups), not imported either.
        var kernel = [UInt8](repeating: 0, count: 12)
        kernel[0] = UInt8(AF_NETLINK & 255); kernel[1] = UInt8(AF_NETLINK >> 8)
        let sent = msg.withUnsafeBytes { body in
            kernel.withUnsafeBytes { address in
                sendto(fd, body.baseAddress, body.count, 0, address.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
            }
        }
        guard sent == msg.count else { return nil }
        var answer = [UInt8](repeating: 0, count: 8192)
        let n = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        // nlmsghdr, then struct inet_diag_msg: family, state, timer, retrans (4), the id (48),
        // expires, rqueue, wqueue (12), then idiag_uid at offset 64.
        guard n >= 16 + 72 else { return nil }
        let type = UInt16(answer[4]) | UInt16(answer[5]) << 8
        guard type == 20 else { return nil }   // NLMSG_ERROR (2): no such socket
        let at = 16 + 64
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(answer[at + $1]) << (8 * UInt32($1)) }
    }
}
