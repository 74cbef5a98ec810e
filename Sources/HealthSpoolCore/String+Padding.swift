extension String {
    /// Left-aligned in `width` columns (a longer text is not cut): the columns of `status`, the
    /// dead letters and the journal's lines.
    public func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
