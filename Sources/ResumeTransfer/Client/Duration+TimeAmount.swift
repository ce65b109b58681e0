import NIOCore

extension Duration {
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = self.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
