#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal and signal calls of the command line (whether a descriptor is a terminal, echo
/// off for a password, a signal's disposition), made here so that no module outside this one
/// calls the system itself.
package enum Terminal {
    /// Whether `descriptor` is a terminal (`isatty(3)`).
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// `body` run with echo off on the terminal `descriptor` (a password typed is not shown),
    /// the terminal's settings put back after it; where they cannot be read, `body` runs as it is.
    package static func withEchoOff<T>(_ descriptor: Int32, _ body: () -> T) -> T {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return body() }
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(descriptor, TCSANOW, &quiet)
        defer { _ = tcsetattr(descriptor, TCSANOW, &settings) }
        return body()
    }

    /// `signal` ignored by the process (a dispatch source then still sees it arrive).
    package static func ignore(signal number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// `signal` given its default action back (a second Ctrl-C ends the process at once).
    package static func restoreDefault(signal number: Int32) {
        _ = signal(number, SIG_DFL)
    }
}
