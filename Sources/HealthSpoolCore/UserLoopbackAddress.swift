/// The loopback address of one user's web interface: 127.B.C.D, derived from the user id.
///
/// Linux routes the whole of 127.0.0.0/8 to `lo`, so every user can have an address of their
/// own. A browser keeps cookies per host, not per port, and treats two hosts as two sites: the
/// session cookie of one user's web interface is therefore never sent to a server another user
/// runs on 127.0.0.1 or on another port of the shared address (issue 26). ::1 is a single address
/// shared by everyone, so the web interface does not listen there.
public enum UserLoopbackAddress {
    /// `127.(1 + (uid >> 16) % 254).((uid >> 8) & 255).(uid & 255)`: unique for user ids below
    /// 16,646,144, never 127.0.0.1 (the address every other program uses), never 127.0.0.0.
    public static func forUser(_ uid: UInt32) -> String {
        "127.\(1 + (uid >> 16) % 254).\((uid >> 8) & 255).\(uid & 255)"
    }
}
