import Foundation
import ResumeSystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``Terminal`` off a terminal, as tests and scripts run: a pipe is no terminal, and echo-off
/// runs its body as it is where there are no terminal settings to change.
@Suite struct TerminalTests {
    @Test func aPipeIsNoTerminalAndEchoOffStillRuns() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        #expect(!Terminal.isTerminal(descriptor))
        #expect(!Terminal.isTerminal(-1))
        #expect(Terminal.withEchoOff(descriptor) { 42 } == 42)
    }
}
