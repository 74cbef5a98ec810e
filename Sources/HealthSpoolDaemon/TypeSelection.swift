import HealthSpoolCore

// Turning types and categories on and off: the lists `types.disabled` and `types.enabled`
// become, shared by `healthspool types enable|disable` and the web interface's toggles.

/// The disabled and enabled lists after enabling `targets`. Enabling a category removes it and
/// every name of it from both lists; enabling a type removes it from the disabled list and,
/// when its category stays disabled, names it in `types.enabled`.
public func enabling(_ targets: [String], disabled: [String], enabled: [String]) -> (disabled: [String], enabled: [String]) {
    var disabled = disabled.map(DataType.canonicalName), enabled = enabled.map(DataType.canonicalName)
    for target in targets {
        if let c = DataCategory(rawValue: target) {
            disabled.removeAll { $0 == c.rawValue || (DataCategory.named($0) == nil && DataType.category(of: $0) == c) }
            enabled.removeAll { DataType.category(of: $0) == c }
            continue
        }
        disabled.removeAll { $0 == target }
        // A local-only type (positions, routes) is sent only when listed by name.
        if disabled.contains(DataType.category(of: target).rawValue) || DataType.localOnly.contains(target), !enabled.contains(target) {
            enabled.append(target)
        }
    }
    return (disabled, enabled)
}

/// The disabled and enabled lists after disabling `targets`: each is added to the disabled
/// list; a category also drops the exceptions `types.enabled` made inside it.
public func disabling(_ targets: [String], disabled: [String], enabled: [String]) -> (disabled: [String], enabled: [String]) {
    var disabled = disabled.map(DataType.canonicalName), enabled = enabled.map(DataType.canonicalName)
    for target in targets {
        if !disabled.contains(target) { disabled.append(target) }
        if let c = DataCategory(rawValue: target) {
            enabled.removeAll { DataType.category(of: $0) == c }
        } else {
            enabled.removeAll { $0 == target }
        }
    }
    return (disabled, enabled)
}
