/// Where the user's session bus is: `DBUS_SESSION_BUS_ADDRESS`, or else the socket systemd's
/// user manager provides at `$XDG_RUNTIME_DIR/bus` (what `sd_bus_open_user` looks for).
public enum SessionBusAddress {
    /// The address to connect to, or nil when the environment names none.
    public static func resolve(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return "unix:path=" + escape(runtime + "/bus")
        }
        return nil
    }

    /// Escapes a value for a D-Bus address: bytes outside `[-0-9A-Za-z_/.\*]` become `%XX`.
    public static func escape(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789abcdef")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
