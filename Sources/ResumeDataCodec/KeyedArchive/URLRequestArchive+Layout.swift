extension URLRequestArchive {
    /// The same request, to be archived in another layout under that layout's usual top key
    /// (`NSKeyedArchiveRootObjectKey` for secure, `root` for legacy).
    func converted(to layout: Layout) -> URLRequestArchive {
        guard layout != self.layout else { return self }
        var copy = self
        copy.layout = layout
        copy.topKey = layout.defaultTopKey
        return copy
    }
}
