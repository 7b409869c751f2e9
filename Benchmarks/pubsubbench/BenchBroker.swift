import PubSubBroker

/// The broker pubsubbench runs against when none is given: `PubSubBroker` with the `echo`
/// procedure the invoke modes call (answers with the request's data).
enum BenchBroker {
    static func start(port: Int, codec: any PacketCodec) async throws -> PubSubBroker {
        var options = BrokerOptions()
        options.codec = codec
        let broker = try await PubSubBroker.start(host: "127.0.0.1", port: port, options: options)
        broker.procedure("echo") { request in request.data }
        return broker
    }
}
