// expect: value of type 'Int32' has no member 'rawValue'
// The check must refuse Glibc's spelling of a constant Darwin imports as a plain `Int32`.
import Foundation

func makeSocket() -> Int32 {
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
}
