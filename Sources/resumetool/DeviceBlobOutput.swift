import ArgumentParser

/// Where `convert` and `repair` write a blob meant for a device, and the one partial file a
/// segmented download's blob needs cut first (``SegmentedBlob``): declared once, so both say the
/// same.
struct DeviceBlobOutput: ParsableArguments {
    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    @Option(help: ArgumentHelp(
        "For a segmented download's blob (download --connections): cut this partial file to the bytes the blob counts first, so a device cannot append after the other segments.",
        valueName: "FILE"))
    var trimPartial: String?
}
