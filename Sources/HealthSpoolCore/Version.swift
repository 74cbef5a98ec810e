/// The version of healthspool, sent as `appVersion` and shown by `--version`.
public enum HealthSpoolVersion {
    public static let current = "0.1.0"
}
