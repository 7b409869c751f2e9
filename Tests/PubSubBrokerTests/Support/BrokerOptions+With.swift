import PubSubBroker

extension BrokerOptions {
    /// These options with `change` applied: a test's one-expression form of
    /// `var options = BrokerOptions(); options.x = …`.
    func with(_ change: (inout BrokerOptions) -> Void) -> BrokerOptions {
        var options = self
        change(&options)
        return options
    }
}
