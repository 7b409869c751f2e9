// expect: mutation of captured var
// The check must refuse what Swift 6 refuses on Apple platforms: `stateUpdateHandler` is
// `@Sendable`, so a closure given to it cannot mutate a captured local.
import Network

func countStates(_ connection: NWConnection) {
    var changes = 0
    connection.stateUpdateHandler = { _ in changes += 1 }
    _ = changes
}
