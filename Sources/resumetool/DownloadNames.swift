/// Local names for the downloads of one run: when two URLs would land on the same name, the later
/// ones get `.1`, `.2`, … as wget names them, so no download continues or replaces another's file.
/// Deterministic in list order, so running the same command again continues each one.
struct DownloadNames {
    private var taken: Set<String> = []

    mutating func claim(_ path: String) -> String {
        var candidate = path
        var suffix = 1
        while self.taken.contains(candidate) {
            candidate = "\(path).\(suffix)"
            suffix += 1
        }
        self.taken.insert(candidate)
        return candidate
    }
}
