import Foundation
import Testing

/// libxml2 prints some faults (encoding conversion) to stderr through its generic handler;
/// FuzzXMLPlist saw them. The tool must print only its own diagnostic for a hostile file.
@Suite struct LibXMLSilenceTests {
    @Test func anUndecodableDocumentPrintsOnlyTheToolsError() throws {
        // UCS-4 by its first four bytes, then bytes that are no UCS-4 character.
        let bytes: [UInt8] = [0x00, 0x00, 0x00, 0x3C, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x70]
        let result = try ToolRunner.run(["plist", "convert", "--to", "json", "-"], stdin: Data(bytes))
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>: error: the document holds no property-list value\n"))
    }
}
